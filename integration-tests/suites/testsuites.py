"""Test-suites suite: real test suites pass on instrumented classes exactly as they pass on the
originals (docs/architecture.md, "Verification").

(a) Published libraries whose tests are on Maven Central as `tests`-classifier jars
    (integration-tests/testsuites/libs/*.xml): commons-lang3, commons-codec, commons-collections4.
    Each runs with the JUnit Platform console launcher twice: on the original jars, then with the
    library's main jar replaced by `jp instrument`'s output (the profiling scheme, --bba default)
    and the runtime jar on the class path. The sets of passed, failed and skipped tests must be
    identical, and the instrumented run must write a profile.
(b) The Mockito suite of integration-tests/testsuites/mockito: production classes (final and
    static methods, an interface with default and static methods, an abstract class, an enum with
    bodies, records, a sealed interface, lambdas and anonymous classes) and JUnit 5 tests with
    mocks, spies, static mocks, captors, answers and a dynamic proxy. They run with Mockito's
    inline mock maker (its default) and with the subclass mock maker (the tests tagged `inline`
    left out), each on the original and on the instrumented classes (--bba precise): every test
    passes in all four runs. The same with Mockito 2.23 (integration-tests/testsuites/mockito2,
    whose inline mock maker reads classes with an older ASM API level), with the production
    classes compiled for Java 8 and for Java 11, and a test that reads an interface's constants
    by reflection.

Jars are fetched once into ${JP_CACHE_DIR:-~/.cache/jp}/testsuites. One PASS/FAIL line per check.
TESTSUITES="commons-lang3 mockito mockito2" (say) runs only those.
Exits 1 if a check failed, 2 if the suite could not run.
"""
import fnmatch
import os
import pathlib
import shutil
import sys
import xml.etree.ElementTree as ElementTree
import zipfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from jptest import build, commands, jdks, surefire  # noqa: E402
from jptest.checks import Checks, indented  # noqa: E402

PROGRAM = "testsuites.py"
HERE = build.ROOT / "integration-tests" / "testsuites"
# Tests written for Java 8 reflect into the JDK, which Java 17 allows only when opened.
OPENS = [option for package in ["java.lang", "java.lang.reflect", "java.util", "java.util.concurrent",
                                "java.util.concurrent.atomic", "java.text", "java.time", "java.io", "java.net",
                                "java.nio", "java.math"]
         for option in ("--add-opens", f"java.base/{package}=ALL-UNNAMED")]
# The published libraries of (a), each with libs/<name>.xml.
LIBRARIES = ["commons-lang3", "commons-codec", "commons-collections4"]


def classpath(*entries):
    return ":".join(str(entry) for entry in entries if entry != "")


def jars(directory, pattern="*.jar"):
    """DIRECTORY's jars matching PATTERN, in name order."""
    return sorted(pathlib.Path(directory).glob(pattern))


def selected(name):
    """Whether TESTSUITES, when set, names NAME."""
    chosen = os.environ.get("TESTSUITES", "")
    return not chosen or name in chosen.split()


def results_counts(results):
    """`N passed, N failed, N skipped` of a results file's lines."""
    statuses = [line.split("\t")[2] for line in results]
    return ", ".join(f"{statuses.count(status)} {status}" for status in ("passed", "failed", "skipped"))


class TestSuites:
    def __init__(self, work):
        self.work = work
        self.checks = Checks()
        self.cache = build.cache_dir() / "testsuites"
        self.java, self.javac = jdks.default_java_and_javac()
        self.jp = build.build_jp()
        self.runtime = build.build_runtime(work)
        launchers = jars(self.fetch("junit"), "junit-platform-console-standalone-*.jar")
        if not launchers:
            raise build.SuiteError(f"no console launcher in {self.cache / 'junit'}")
        self.launcher = launchers[0]

    def fetch(self, name):
        """The jars of libs/NAME.xml, copied once into the cache; returns their directory. JUnit
        itself comes from the console launcher (libs/junit.xml), so the other suites leave it out."""
        directory = self.cache / name
        if not (directory / ".complete").is_file():
            shutil.rmtree(directory, ignore_errors=True)
            args = ["mvn", "-q", "-f", str(HERE / "libs" / f"{name}.xml"), "dependency:copy-dependencies",
                    f"-DoutputDirectory={directory}"]
            if name != "junit":
                args.append("-DexcludeGroupIds=org.junit.jupiter,org.junit.platform,org.junit.vintage")
            if commands.run_passing(args) != 0:
                raise build.SuiteError(f"could not fetch {name}")
            (directory / ".complete").touch()
        return directory

    def run_tests(self, out, cp, scan, cwd, *launcher_args):
        """Runs the tests found in SCAN (a jar or directory) with class path CP, in the working
        directory CWD (where tests that open their resources by path look); writes OUT.results,
        OUT.log and, when the runtime is on the class path, a profile to OUT.jpprof. Test classes
        are the ones Surefire runs by default: names ending in Test. A fixed heap makes
        memory-hungry tests (commons-codec's 1 GiB Base64 case checks the free memory first) take
        the same path on every machine."""
        args = [self.java, "-Xss4m", "-Xmx3g", *OPENS, f"-Djp.output={out}.jpprof", "-cp",
                classpath(cp, self.launcher), "org.junit.platform.console.ConsoleLauncher", "execute",
                "--disable-banner", "--details=summary", f"--reports-dir={out}.reports",
                f"--scan-class-path={scan}", "--include-classname=^.*Test$", *launcher_args]
        commands.run_logged(args, f"{out}.log", cwd=cwd, timeout=900)
        try:
            results = surefire.results(f"{out}.reports")
        except (ElementTree.ParseError, OSError) as error:  # no results, the reason in the log
            results = []
            with open(f"{out}.log", "a") as log:
                print(f"{PROGRAM}: {error}", file=log)
        pathlib.Path(f"{out}.results").write_text("".join(f"{line}\n" for line in results))
        return results

    def compare(self, name, original, instrumented, original_results, instrumented_results):
        """The same results on the instrumented classes, and a profile written."""
        if not original_results:
            self.checks.fail(f"{name}: no tests ran on the original classes (see {original}.log)",
                             indented(commands.tail(f"{original}.log", 20)))
        elif original_results == instrumented_results:
            self.checks.pass_(f"{name}: the same results on instrumented classes: "
                              f"{results_counts(instrumented_results)}")
        else:
            self.checks.fail(f"{name}: results differ on instrumented classes (original: "
                             f"{results_counts(original_results)}; instrumented: "
                             f"{results_counts(instrumented_results)})",
                             indented(commands.output(["diff", f"{original}.results",
                                                       f"{instrumented}.results"])[0], 10))
        profile = pathlib.Path(f"{instrumented}.jpprof")
        folded = pathlib.Path(f"{instrumented}.folded")
        if profile.is_file() and profile.stat().st_size > 0 and commands.run_split(
                [self.jp, "report", profile, "--format", "folded"], folded, os.devnull) == 0 \
                and folded.stat().st_size > 0:
            contexts = len(commands.read_text(folded).splitlines())
            self.checks.pass_(f"{name}: the instrumented run wrote a profile ({contexts} contexts with bytecodes)")
        else:
            self.checks.fail(f"{name}: the instrumented run wrote no usable profile")

    def instrument(self, name, inputs, out, bba, log):
        """`jp instrument INPUTS --out OUT --bba BBA`, its output in LOG; a FAIL line when it fails."""
        if commands.run_logged([self.jp, "instrument", inputs, "--out", out, "--bba", bba], log) == 0:
            return True
        self.checks.fail(f"{name}: jp instrument failed", indented(commands.tail(log, 5)))
        return False

    def library(self, lib):
        """(a): LIB's own tests on its original and on its instrumented main jar."""
        watch = commands.Stopwatch()
        try:
            directory = self.fetch(lib)
        except build.SuiteError:
            self.checks.fail(f"{lib}: could not fetch its jars")
            return
        main = next(jar for jar in jars(directory) if not jar.name.endswith("-tests.jar")
                    and fnmatch.fnmatch(jar.name, f"{lib}-[0-9]*"))
        tests = jars(directory, f"{lib}-*-tests.jar")[0]
        others = classpath(*(jar for jar in jars(directory) if jar != main))
        work = self.work / lib
        cwd = work / "cwd"
        resources = cwd / "src" / "test" / "resources"
        resources.mkdir(parents=True)
        with zipfile.ZipFile(tests) as archive:
            archive.extractall(resources, [member for member in archive.namelist()
                                           if not member.endswith(".class") and not member.startswith("META-INF/")])
        if not self.instrument(lib, main, work / "instrumented", "default", work / "instrument.log"):
            return
        original = self.run_tests(work / "original", classpath(main, others), tests, cwd)
        instrumented = self.run_tests(work / "instrumented", classpath(work / "instrumented" / main.name, others,
                                                                       self.runtime), tests, cwd)
        self.compare(f"{lib} {main.name[:-len('.jar')]} ({watch.whole_seconds()} s)", work / "original",
                     work / "instrumented", original, instrumented)

    def mockito(self, name, sources, release, inline_cp, subclass_cp):
        """(b): compiles SOURCES' main classes with --release RELEASE and its tests, instruments the
        main classes (--bba precise), and runs the tests with each mock maker (class path INLINE_CP,
        then SUBCLASS_CP with the tests tagged `inline` left out) on the original and on the
        instrumented classes: every test passes in all four runs."""
        watch = commands.Stopwatch()
        m = self.work / name
        classes, test_classes, log = m / "classes", m / "test-classes", m / "javac.log"
        classes.mkdir(parents=True)
        test_classes.mkdir()
        main_sources = sorted(str(path) for path in (sources / "src" / "main" / "java").rglob("*.java"))
        test_sources = sorted(str(path) for path in (sources / "src" / "test" / "java").rglob("*.java"))
        if commands.run_logged([self.javac, "--release", str(release), "-d", classes, *main_sources], log) != 0 or \
                commands.run_logged([self.javac, "--release", "17", "-d", test_classes, "-cp",
                                     classpath(classes, inline_cp, self.launcher), *test_sources],
                                    log, append=True) != 0:
            print(commands.read_text(log), end="", flush=True)
            self.checks.fail(f"{name}: the suite does not compile")
            return
        if not self.instrument(name, classes, m / "instrumented", "precise", m / "instrument.log"):
            return
        for maker, cp, extra in [("inline", inline_cp, []), ("subclass", subclass_cp, ["--exclude-tag", "inline"])]:
            original = self.run_tests(m / f"{maker}-original", classpath(test_classes, classes, cp), test_classes,
                                      m, *extra)
            instrumented = self.run_tests(m / f"{maker}-instrumented",
                                          classpath(test_classes, m / "instrumented", cp, self.runtime),
                                          test_classes, m, *extra)
            self.compare(f"{name} {maker} mock maker", m / f"{maker}-original", m / f"{maker}-instrumented",
                         original, instrumented)
            not_passed = [line for line in original if not line.endswith("\tpassed")]
            if not_passed:
                self.checks.fail(f"{name} {maker} mock maker: not every test passes on the original classes",
                                 indented("\n".join(not_passed), 5))
        self.checks.info(f"TIME {name}: {watch.whole_seconds()} s")

    def run(self):
        for lib in LIBRARIES:
            if selected(lib):
                self.library(lib)
        # Mockito 5: its inline mock maker is the default; mockito-subclass selects the subclass one.
        if selected("mockito"):
            mockito_cp = classpath(*jars(self.fetch("mockito")))
            subclass_cp = classpath(*jars(self.fetch("mockito-subclass"), "mockito-subclass-*.jar"))
            self.mockito("mockito", HERE / "mockito", 17, mockito_cp, classpath(subclass_cp, mockito_cp))
        # Mockito 2.23: the subclass mock maker is the default; a MockMaker resource (what the
        # mockito-inline artifact holds) selects the inline one. Its inline mock maker cannot read a
        # CONSTANT_Dynamic; the classes are compiled for Java 8 (interfaces' fields must be public)
        # and for Java 11 (the first version with CONSTANT_Dynamic).
        if selected("mockito2"):
            mockito2_cp = classpath(*jars(self.fetch("mockito2")))
            for release in (8, 11):
                self.mockito(f"mockito2-release{release}", HERE / "mockito2", release,
                             classpath(HERE / "mockito2" / "inline", mockito2_cp), mockito2_cp)
        self.checks.summary(PROGRAM)
        return self.checks.status()


def suite():
    return build.in_scratch(PROGRAM, "jp-testsuites.", lambda work: TestSuites(work).run())


if __name__ == "__main__":
    build.main(PROGRAM, suite)
