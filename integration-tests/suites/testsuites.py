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
(c) commons-text's tests (libs/commons-text.xml) with their whole class path instrumented: the
    library, its tests jar and every test dependency, Mockito's inline mock maker with byte-buddy
    and byte-buddy-agent included (whose classes jp instrument leaves uninstrumented by default,
    with a note, as they attach through a child JVM that does not have the runtime). The results
    must be those of the original jars, and the instrumented run must write a profile.

Jars are fetched once into ${JP_CACHE_DIR:-~/.cache/jp}/testsuites (jptest.published_suites, which
the overhead benchmark's test suite shares). One PASS/FAIL line per check.
TESTSUITES="commons-lang3 mockito mockito2 commons-text" (say) runs only those.
Exits 1 if a check failed, 2 if the suite could not run.
"""
import os
import pathlib
import sys
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from jptest import build, commands, jdks, published_suites, surefire  # noqa: E402
from jptest.checks import Checks, indented  # noqa: E402
from jptest.published_suites import classpath, fetch, jars  # noqa: E402

PROGRAM = "testsuites.py"
HERE = build.ROOT / "integration-tests" / "testsuites"
# The published libraries of (a), each with libs/<name>.xml.
LIBRARIES = ["commons-lang3", "commons-codec", "commons-collections4"]
# The published library of (c), with libs/<name>.xml.
WHOLE_CLASSPATH = "commons-text"


def selected(name):
    """Whether TESTSUITES, when set, names NAME."""
    chosen = os.environ.get("TESTSUITES", "")
    return not chosen or name in chosen.split()


class TestSuites:
    def __init__(self, work):
        self.work = work
        self.checks = Checks()
        self.java, self.javac = jdks.default_java_and_javac()
        self.jp = build.build_jp()
        self.runtime = build.build_runtime(work)
        self.launcher = published_suites.console_launcher()

    def run_tests(self, out, cp, scan, cwd, *launcher_args):
        """Runs the tests found in SCAN (a jar or directory) with class path CP, in the working
        directory CWD (where tests that open their resources by path look); writes OUT.results,
        OUT.log and, when the runtime is on the class path, a profile to OUT.jpprof."""
        args = published_suites.console_command(self.java, self.launcher, cp, scan, f"{out}.reports",
                                                [f"-Djp.output={out}.jpprof"], launcher_args=launcher_args)
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
                              f"{surefire.results_counts(instrumented_results)}")
        else:
            self.checks.fail(f"{name}: results differ on instrumented classes (original: "
                             f"{surefire.results_counts(original_results)}; instrumented: "
                             f"{surefire.results_counts(instrumented_results)})",
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
        """`jp instrument INPUTS --out OUT --bba BBA` (INPUTS one path or a list), its output in LOG; a FAIL
        line when it fails."""
        inputs = inputs if isinstance(inputs, list) else [inputs]
        if commands.run_logged([self.jp, "instrument", *inputs, "--out", out, "--bba", bba], log) == 0:
            return True
        self.checks.fail(f"{name}: jp instrument failed", indented(commands.tail(log, 5)))
        return False

    def library(self, lib):
        """(a): LIB's own tests on its original and on its instrumented main jar."""
        watch = commands.Stopwatch()
        try:
            library = published_suites.library_jars(lib, fetch(lib))
        except build.SuiteError:
            self.checks.fail(f"{lib}: could not fetch its jars")
            return
        main, tests, others = library.main, library.tests, library.others
        work = self.work / lib
        cwd = work / "cwd"
        published_suites.unpack_resources(tests, cwd)
        if not self.instrument(lib, main, work / "instrumented", "default", work / "instrument.log"):
            return
        original = self.run_tests(work / "original", classpath(main, others), tests, cwd)
        instrumented = self.run_tests(work / "instrumented", classpath(work / "instrumented" / main.name, others,
                                                                       self.runtime), tests, cwd)
        self.compare(f"{lib} {main.name[:-len('.jar')]} ({watch.whole_seconds()} s)", work / "original",
                     work / "instrumented", original, instrumented)

    def whole_classpath(self, lib):
        """(c): LIB's own tests with every jar of their class path instrumented."""
        watch = commands.Stopwatch()
        try:
            directory = fetch(lib)
        except build.SuiteError:
            self.checks.fail(f"{lib}: could not fetch its jars")
            return
        every = jars(directory)
        tests = published_suites.library_jars(lib, directory).tests
        work = self.work / f"{lib}-whole"
        cwd = work / "cwd"
        published_suites.unpack_resources(tests, cwd)
        log = work / "instrument.log"
        if not self.instrument(lib, [str(jar) for jar in every], work / "instrumented", "default", log):
            return
        note = [line for line in commands.read_text(log).splitlines()
                if line.startswith("note: left uninstrumented: net.bytebuddy.agent.*")]
        self.checks.check(bool(note), f"{lib} whole class path: byte-buddy-agent left uninstrumented, with a note: "
                                      f"{note[:1]}", f"{lib} whole class path: no note about byte-buddy-agent",
                          indented(commands.tail(log, 5)))
        instrumented_jars = [work / "instrumented" / jar.name for jar in every]
        original = self.run_tests(work / "original", classpath(*every), tests, cwd)
        instrumented = self.run_tests(work / "instrumented-run", classpath(*instrumented_jars, self.runtime),
                                      work / "instrumented" / tests.name, cwd)
        self.compare(f"{lib} with its whole class path instrumented ({watch.whole_seconds()} s)", work / "original",
                     work / "instrumented-run", original, instrumented)

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
            mockito_cp = classpath(*jars(fetch("mockito")))
            subclass_cp = classpath(*jars(fetch("mockito-subclass"), "mockito-subclass-*.jar"))
            self.mockito("mockito", HERE / "mockito", 17, mockito_cp, classpath(subclass_cp, mockito_cp))
        # Mockito 2.23: the subclass mock maker is the default; a MockMaker resource (what the
        # mockito-inline artifact holds) selects the inline one. Its inline mock maker cannot read a
        # CONSTANT_Dynamic; the classes are compiled for Java 8 (interfaces' fields must be public)
        # and for Java 11 (the first version with CONSTANT_Dynamic).
        if selected("mockito2"):
            mockito2_cp = classpath(*jars(fetch("mockito2")))
            for release in (8, 11):
                self.mockito(f"mockito2-release{release}", HERE / "mockito2", release,
                             classpath(HERE / "mockito2" / "inline", mockito2_cp), mockito2_cp)
        if selected(WHOLE_CLASSPATH):
            self.whole_classpath(WHOLE_CLASSPATH)
        self.checks.summary(PROGRAM)
        return self.checks.status()


def suite():
    return build.in_scratch(PROGRAM, "jp-testsuites.", lambda work: TestSuites(work).run())


if __name__ == "__main__":
    build.main(PROGRAM, suite)
