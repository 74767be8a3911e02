"""Published test suites: a library's `tests`-classifier jar from Maven Central with its main jar
and what its tests need (integration-tests/testsuites/libs/NAME.xml), fetched once into the cache,
and the JUnit Platform console launcher's command line that runs them. Shared by
suites/testsuites.py and the overhead benchmark's test suite (perf/run.py)."""
import dataclasses
import fnmatch
import pathlib
import shutil
import zipfile

from jptest import build, commands

LIBS = build.ROOT / "integration-tests" / "testsuites" / "libs"
# Tests written for Java 8 reflect into the JDK, which Java 17 allows only when opened.
OPENS = [option for package in ["java.lang", "java.lang.reflect", "java.util", "java.util.concurrent",
                                "java.util.concurrent.atomic", "java.text", "java.time", "java.io", "java.net",
                                "java.nio", "java.math"]
         for option in ("--add-opens", f"java.base/{package}=ALL-UNNAMED")]
# Test classes are the ones Surefire runs by default: names ending in Test.
SUREFIRE_CLASSES = "^.*Test$"


def classpath(*entries):
    return ":".join(str(entry) for entry in entries if entry != "")


def jars(directory, pattern="*.jar"):
    """DIRECTORY's jars matching PATTERN, in name order."""
    return sorted(pathlib.Path(directory).glob(pattern))


def fetch(name):
    """The jars of libs/NAME.xml, copied once into ${JP_CACHE_DIR:-~/.cache/jp}/testsuites/NAME;
    returns that directory. JUnit itself comes from the console launcher (libs/junit.xml), so the
    other suites leave it out."""
    directory = build.cache_dir() / "testsuites" / name
    if not (directory / ".complete").is_file():
        shutil.rmtree(directory, ignore_errors=True)
        args = ["mvn", "-q", "-f", str(LIBS / f"{name}.xml"), "dependency:copy-dependencies",
                f"-DoutputDirectory={directory}"]
        if name != "junit":
            args.append("-DexcludeGroupIds=org.junit.jupiter,org.junit.platform,org.junit.vintage")
        if commands.run_passing(args) != 0:
            raise build.SuiteError(f"could not fetch {name}")
        (directory / ".complete").touch()
    return directory


def console_launcher():
    """The console launcher's standalone jar (Jupiter and Vintage engines included), fetched once."""
    directory = fetch("junit")
    launchers = jars(directory, "junit-platform-console-standalone-*.jar")
    if not launchers:
        raise build.SuiteError(f"no console launcher in {directory}")
    return launchers[0]


@dataclasses.dataclass(frozen=True)
class Library:
    """A published library's jars: MAIN, the one a build instruments; TESTS, its tests-classifier
    jar; OTHERS, the tests jar and what the tests need, as a class path."""
    main: pathlib.Path
    tests: pathlib.Path
    others: str


def library_jars(name, directory):
    """The Library NAME in DIRECTORY, the jars fetch(NAME) copied."""
    found = jars(directory)
    main = next(jar for jar in found if not jar.name.endswith("-tests.jar")
                and fnmatch.fnmatch(jar.name, f"{name}-[0-9]*"))
    tests = jars(directory, f"{name}-*-tests.jar")[0]
    return Library(main, tests, classpath(*(jar for jar in found if jar != main)))


def unpack_resources(tests, cwd):
    """The resources of the TESTS jar unpacked into CWD/src/test/resources, where tests that open
    them by path look when they run in CWD."""
    resources = pathlib.Path(cwd) / "src" / "test" / "resources"
    resources.mkdir(parents=True)
    with zipfile.ZipFile(tests) as archive:
        archive.extractall(resources, [member for member in archive.namelist()
                                       if not member.endswith(".class") and not member.startswith("META-INF/")])


def console_command(java, launcher, cp, scan, reports, jvm_options=(), classes=SUREFIRE_CLASSES, launcher_args=()):
    """The JVM that runs, with the console LAUNCHER, the tests found in SCAN (a jar or directory)
    whose class names match the regular expression CLASSES, with class path CP and JVM_OPTIONS,
    printing the launcher's summary and writing JUnit XML reports into REPORTS. A fixed heap makes
    memory-hungry tests (commons-codec's 1 GiB Base64 case checks the free memory first) take the
    same path on every machine."""
    return [java, "-Xss4m", "-Xmx3g", *OPENS, *jvm_options, "-cp", classpath(cp, launcher),
            "org.junit.platform.console.ConsoleLauncher", "execute", "--disable-banner", "--details=summary",
            f"--reports-dir={reports}", f"--scan-class-path={scan}", f"--include-classname={classes}",
            *launcher_args]
