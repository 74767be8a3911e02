"""The JDKs the suites use besides the default one: a JDK 17 with jmods and a Temurin 25."""
import glob
import os
import pathlib
import re


def jdk_version(home):
    """The JAVA_VERSION of HOME's release file, or None."""
    try:
        text = (pathlib.Path(home) / "release").read_text(errors="replace")
    except OSError:
        return None
    match = re.search(r'^JAVA_VERSION="(.*)"$', text, re.MULTILINE)
    return match.group(1) if match else None


def find_jdk(major, candidates, has_image):
    """The first of CANDIDATES that is a JDK (with javac) of version MAJOR and passes HAS_IMAGE."""
    for candidate in candidates:
        if not candidate:
            continue
        home = pathlib.Path(candidate)
        if has_image(home) and os.access(home / "bin" / "javac", os.X_OK) and \
                (jdk_version(home) or "").startswith(str(major)):
            return home
    return None


def find_jdk17(with_jmods=True):
    """A JDK 17, with its jmods unless WITH_JMODS is false: JAVA_HOME first, then Debian's paths;
    None when there is none."""
    candidates = [os.environ.get("JAVA_HOME"), "/usr/lib/jvm/java-17-openjdk-amd64",
                  *sorted(glob.glob("/usr/lib/jvm/java-17-openjdk-*"))]
    return find_jdk(17, candidates, lambda home: not with_jmods or (home / "jmods" / "java.base.jmod").is_file())


def find_temurin25():
    """A JDK 25 with a full image: TEMURIN25_HOME first, then Debian's Temurin package paths;
    None when there is none or TEMURIN25_HOME=none."""
    chosen = os.environ.get("TEMURIN25_HOME")
    if chosen == "none":
        return None
    candidates = [chosen, "/usr/lib/jvm/temurin-25-jdk-amd64", *sorted(glob.glob("/usr/lib/jvm/temurin-25*"))]
    return find_jdk(25, candidates, lambda home: os.access(home / "bin" / "jimage", os.X_OK)
                    and (home / "lib" / "modules").is_file())


def default_home():
    """${JAVA_HOME:-Debian's JDK 17}, whether it exists or not."""
    return pathlib.Path(os.environ.get("JAVA_HOME") or "/usr/lib/jvm/java-17-openjdk-amd64")


def default_java_and_javac():
    """The `java` and `javac` of default_home(), or the ones on the PATH when it has none."""
    home = default_home()
    tools = []
    for tool in ("java", "javac"):
        path = home / "bin" / tool
        tools.append(str(path) if os.access(path, os.X_OK) else tool)
    return tuple(tools)
