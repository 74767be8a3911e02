"""What the cross suite reads: the released platforms as `jp-dist released` lists them, the
libraries `jp-dist check-jar` passed, and what EngineRun (integration-tests/cross) prints."""
import collections
import re

Platform = collections.namedtuple("Platform", "id target")
EngineRun = collections.namedtuple("EngineRun", "os library counts")


def released(text):
    """The platforms of `jp-dist released`'s lines, `ID RUST-TARGET`."""
    return [Platform(*line.split()[:2]) for line in text.splitlines() if line.strip()]


def checked_libraries(text):
    """The `ok ...` lines of `jp-dist check-jar`, one per library that passed."""
    return [line for line in text.splitlines() if line.startswith("ok ")]


def engine_run(text):
    """EngineRun's lines in a log: the platform the JVM reports (`Linux / aarch64`), the library
    file the facade loaded, and the log's last line (the counts, or an error); "" for what is
    missing. A Windows JVM ends its lines with carriage returns, which are dropped."""
    lines = [line.rstrip("\r") for line in text.splitlines()]

    def after(prefix):
        return next((line[len(prefix):] for line in lines if line.startswith(prefix)), "")

    return EngineRun(after("os "), after("library "), lines[-1] if lines else "")


def unsupported_platform_message(text, platform, supported):
    """The first line of a log that names PLATFORM, from its exception's message on, when the log
    also names every one of SUPPORTED (the jar's platforms); None otherwise."""
    line = next((line for line in text.splitlines() if platform in line), None)
    if line is None or not all(name in text for name in supported):
        return None
    return re.sub(r"^.*Exception: ", "", line)
