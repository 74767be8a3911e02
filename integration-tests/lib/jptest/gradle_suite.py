"""The gradle and gradle8 suites: the plugin org.jpprof.jp (gradle-plugin/, docs/gradle.md) in real
builds. `gradle` runs them with the `gradle` on PATH (Debian's 4.4.1; run.sh installs it when
missing); `gradle8` on Gradle 8.11.1 (integration-tests/gradle8/gradle, see
docs/gradle-8-harness.md), which runs each build in its own JVM and has no daemon, so step 0 and
step 5 are left out there, and step 9 only runs there.

  0. the set-up step of the demo and of the test command (scripts/lib/ensure-tools.sh) in a dry
     run, with a PATH without gradle: each would install Gradle, and nothing else;
  1. builds the plugin and the engine with Maven (and `jp` with cargo, to read profiles) and puts
     JP's artifacts into a throwaway local Maven repository, as `mvn install` lays them out;
  2. checks that the plugin, compiled against the Gradle 8 API, calls only what this Gradle has
     (integration-tests/gradle/ApiCheck.java), outside the classes it loads on newer Gradle only;
  3. runs a plain copy (cp -r) of examples/gradle-demo: `gradle jpProfileTest jpReport` passes
     its tests on instrumented classes, the profile's hottest context is the quadratic sort,
     jpReport writes build/reports/jp/index.html (a complete HTML document) and report.txt
     (naming the sort), and the compiler output is untouched; two builds at once in one project
     each write a run of profiles of their own and report it alone; jpIdeSetup's class path runs
     the application instrumented, its IntelliJ IDEA and Eclipse run configurations in .run/
     parse, and java with exactly the class path and JVM options of each application
     configuration runs it instrumented; `ideFiles = false` writes none;
  3a. per-test contexts under Gradle's JUnit 4 framework: each of the demo's tests is its own
     top-level context with its set-up inside, through a hooked copy of junit's jar in
     build/jp/junit (RunNotifier rewritten, every other entry the same, junit's jar untouched);
  3b. per-line counts: with `jp { lines = true }`, report.txt lists Leaderboard.rank's lines,
     which add up exactly to its own bytecodes, and the page holds Leaderboard.java's lines;
  3c. sampled time: with `jp { jfr = true }`, the test JVM records JFR into the run's jfr/ and
     report.txt totals its CPU samples, labelled sampled, beside calls and bytecodes as without it;
     on Gradle 8, again with the configuration cache stored and reused;
  3d. allocation counts: with `jp { metrics = ['allocations'] }`, report.txt totals the allocations,
     labelled exact, beside the same calls as without it; with `baselineMetric = 'allocations'`,
     jpBaseline records allocations and jpCheck gates them;
  4. incremental work: a second run is UP-TO-DATE; rerun, the engine rewrites nothing and reuses
     every class; an edited class is the only one rewritten and the output equals a clean
     build's byte for byte; a deleted class loses its output; a copy of the project in another
     directory takes the instrumented classes from the build cache;
  5. one daemon: builds in a row, and a build with another build-script class path (so a second
     class loader loads the engine's library in the same JVM) that instruments and reports;
  6. a multi-module build, one module depending on another (integration-tests/gradle/multi-module),
     with a report per module, the upstream module's classes instrumented in the downstream
     tests (exact calls), the root's jpAggregateReport of both, and -Pjp.skip skipping JP;
  6a. JP enabled on `test` and on a test task of the build's own: each profiles its own tests
     (filters kept), one jpReport merges them; jpProfileTest keeps test's filter;
  6b. per-test contexts with TestNG (useTestNG(), the sources of integration-tests/maven/testng-demo):
     each test method invocation has its context with its @BeforeMethod, a data provider's rows
     are told apart, @BeforeClass counts under the class, two runs give identical per-test totals;
  7. bad input, each failing the task with a message naming the file or setting, and no JVM
     crashing (no hs_err file): sources without classes, a wrong agent or granularity in the
     jp block, a corrupt class in the compiler output, an output directory that cannot be
     created (a file in its place), an unreadable profile, a report file that cannot be written,
     and a jp-engine without the runtime inside; with no profiles, jpReport says so and succeeds;
  7b. the regression gate: jpBaseline writes jp-baseline.txt, byte-identical over two runs of
     the tests and holding per-test totals; jpCheck passes on the same code, fails naming
     Leaderboard.rank with its numbers once it does more work, and names the diff report of the
     profiles jpBaseline kept against the run, which jp diff confirms (or, without them, says how
     to get one); passes with tolerances set for it and its tests and once reverted; a baseline
     of other settings is refused and a missing one explained;
  8. the plugin marker: `plugins { id 'org.jpprof.jp' version ... }` resolves the plugin
     (integration-tests/gradle/plugins-block, with JP installed under its release version too:
     Gradle before 5 refuses -SNAPSHOT plugin versions there);
  9. on Gradle 8 only: the demo under --warning-mode fail, the configuration cache stored and
     reused by `clean jpProfileTest jpReport` builds, also when an unrelated environment
     variable changed, a JVM test suite with JP enabled running its project's jar and another
     project's instrumented (configuration cache, two projects), and a JUnit 5 project
     (integration-tests/gradle/junit5, with the sources of integration-tests/maven/params-demo)
     whose parameterized test's invocations each get their context.

Gradle's own files (junit and testng, downloaded once from Maven Central) are kept in
${JP_CACHE_DIR:-~/.cache/jp}/<suite>/home; the daemon of step 5 uses a home of its own, which is
stopped at the end. Prints PASS/FAIL/SKIP lines; exits 1 if a check failed, 2 if the suite could
not run. The work directory is kept when a check fails.

    build.main("gradle8.py", lambda: gradle_suite.suite("gradle8"))
"""
import hashlib
import os
import pathlib
import re
import shutil
import subprocess

from jptest import build, commands, files, gradle_logs, jp_lines, surefire
from jptest.checks import NamedChecks
from jptest.commands import first_match, found, read_text as text
from jptest.plugin_checks import TESTNG_POM, PluginChecks, complete_page, no_crash, shown, testng_version

ROOT = build.ROOT
DEMO_SOURCES = ROOT / "examples" / "gradle-demo"
GRADLE_PROJECTS = ROOT / "integration-tests" / "gradle"
TASKS = ("jpProfileTest", "jpReport")
MODULES = ("parent", "runtime", "engine", "gradle-plugin", "gradle-marker")
GRADLES = {"gradle": "gradle", "gradle8": str(ROOT / "integration-tests" / "gradle8" / "gradle")}
LEADERBOARD_CLASS = "org/example/leaderboard/Leaderboard.class"
NOTIFIER = "org/junit/runner/notification/RunNotifier.class"
WOULD_INSTALL_GRADLE = "ensure_tools: would run: apt-get update && apt-get install -y --no-install-recommends gradle"
# Methods as the text reports (report.txt) name them: the short name, then the package.
RANK_IN_REPORT = "Leaderboard.rank(List) [org.example.leaderboard]"
FIB_IN_REPORT = "Fib.fib(int) [org.acme.core]"
ROW_IN_REPORT = "Table.row(int) [org.acme.app]"
FIB_CALLS = re.compile(r";org\.acme\.core\.Fib\.fib\(int\):long [0-9]+$")
TEST_CLASS = re.compile(r"^\[test\] [a-z.]*\.([A-Za-z]*)#")

# The demo's main class as the application plugin gives it, from an init script (the demo itself
# has none), so that jpIdeSetup writes a run configuration for it beside the tests' one.
IDE_MAIN = """allprojects {
    apply plugin: 'application'
    if (GradleVersion.current() < GradleVersion.version('6.4')) {
        mainClassName = 'org.example.leaderboard.Main'
    } else {
        application.mainClass.set('org.example.leaderboard.Main')
    }
}
"""
IDE_OFF = """allprojects {
    tasks.matching { it.name == 'jpIdeSetup' }.all { ideFiles = false }
}
"""
# Each of two builds at once writes the test task's own reports and results, and its JP report,
# into directories of its own: two builds writing one output directory at once can fail Gradle's
# snapshot of it, JP or not. The directory of the runs is shared: that is what is tested.
SIDES = """
def side = project.findProperty("side")
jpReport { outputDir = file("build/reports/jp-" + side) }
jpProfileTest {
    def html = file("build/reports/tests-" + side)
    def xml = file("build/test-results-" + side)
    def binary = file("build/test-results-" + side + "/binary")
    if (GradleVersion.current() < GradleVersion.version("6.1")) {
        reports.html.destination = html
        reports.junitXml.destination = xml
        binResultsDir = binary
    } else {
        reports.html.outputLocation.set(html)
        reports.junitXml.outputLocation.set(xml)
        binaryResultsDirectory.set(binary)
    }
}
"""
TEST_TASKS = """
test {
    filter {
        includeTestsMatching '*StatsTest'
    }
    jp {
        enabled = true
    }
}

task integrationTest(type: Test) {
    testClassesDirs = sourceSets.test.output.classesDirs
    classpath = sourceSets.test.runtimeClasspath
    filter {
        includeTestsMatching '*LeaderboardTest'
    }
    forkEvery = 1
    jp {
        enabled = true
    }
}
"""
GATE = """jp {
    methodFloor = 0
    if (project.hasProperty('gateBaseline')) { baseline = project.property('gateBaseline') }
    if (project.hasProperty('gateTolerant')) {
        tolerances = ['org.example.leaderboard.Leaderboard.rank*': 1000000, 'org.example.leaderboard.LeaderboardTest#*': 1000000]
    }
}
"""
JVM_TEST_SUITE = """testing {
    suites {
        integrationTest(JvmTestSuite) {
            useJUnit('4.13.2')
            targets.all {
                testTask.configure {
                    jp {
                        enabled = true
                    }
                }
            }
        }
    }
}

dependencies {
    integrationTestImplementation project(':app')
}
"""


def first_line_with(part, path):
    """The first line of the file at PATH that holds PART, without its leading spaces, or ""."""
    return next((line.lstrip(" ") for line in text(path).splitlines() if part in line), "")


def edit(path, old, new):
    path = pathlib.Path(path)
    path.write_text(path.read_text().replace(old, new))


def append(path, more):
    with open(path, "a") as file:
        file.write(more)


def glob(directory, pattern):
    return sorted(pathlib.Path(directory).glob(pattern))


def digest(directory):
    """The files under DIRECTORY and their bytes, for comparisons (empty when there is none)."""
    return {path.relative_to(directory): path.read_bytes() for path in files.files_under(directory)}


def ends_page(path):
    """Whether the file at PATH ends with `</html>` (and at most a newline)."""
    try:
        return pathlib.Path(path).read_bytes()[-8:].startswith(b"</html>")
    except OSError:
        return False


class GradleSuite:
    def __init__(self, suite, work):
        self.suite = suite
        self.program = f"{suite}.py"
        self.work = work
        self.checks = NamedChecks(suite)
        self.gradle = GRADLES[suite]
        if not shutil.which(self.gradle):
            raise build.SuiteError("no gradle on PATH (apt-get install gradle)")
        if not shutil.which("mvn"):
            raise build.SuiteError("no mvn on PATH")
        self.version = build.root_version()
        self.cache = build.cache_dir() / suite
        self.repo = work / "m2"
        self.home = self.cache / "home"
        self.home.mkdir(parents=True, exist_ok=True)
        os.environ["GRADLE_USER_HOME"] = str(self.home)
        self.daemon_home = work / "daemon-home"
        self.jp = None
        self.plugin = None
        self.gradle_version = ""
        self.single_calls = 0

    # -- builds -----------------------------------------------------------------------------------

    def log(self, name):
        return self.work / f"{name}.log"

    def gradle_args(self, directory, args, needs, online, repo):
        """A build's command: no daemon, plain console; offline once Gradle's cache has the test
        framework's group NEEDS (the first build fetches it), unless ONLINE."""
        offline = not online and (self.home / "caches" / "modules-2" / "files-2.1" / needs).is_dir()
        return [self.gradle, "--no-daemon", "--console=plain", *(["--offline"] if offline else []),
                f"-Dmaven.repo.local={repo or self.repo}", f"-Djp.engine.cacheDir={self.cache}/engine",
                *map(str, args)]

    def gradle_run(self, name, directory, *args, needs="junit", online=False, repo=None, env=None):
        """Runs a build in DIRECTORY, its output in WORK/NAME.log, with the environment variables
        ENV added; whether it passed."""
        return commands.run_logged(self.gradle_args(directory, args, needs, online, repo), self.log(name),
                                   cwd=directory, env=dict(os.environ, **(env or {}))) == 0

    def gradle_start(self, name, directory, *args):
        """Starts a build as gradle_run does; returns its process."""
        return commands.start_logged(self.gradle_args(directory, args, "junit", False, None), self.log(name),
                                     cwd=directory)

    def has_outcome(self, name, task, outcome):
        return gradle_logs.has_outcome(text(self.log(name)), task, outcome)

    def instrumented(self, name):
        """The build NAME's jpInstrument line: `jp: jpInstrument -> DIR: N rewritten, N reused, ...`."""
        return jp_lines.plugin_line(text(self.log(name)))

    def counts(self, name):
        """What follows the directory in the build NAME's jpInstrument line."""
        return jp_lines.plugin_summary(text(self.log(name)))

    def copy_project(self, source, target):
        """A copy of a project without build output, using this JP's plugin version."""
        shutil.copytree(source, target, symlinks=True)
        for output in ("build", ".gradle"):
            shutil.rmtree(target / output, ignore_errors=True)
        for script in target.rglob("build.gradle"):
            script.write_text(re.sub(r"jp-gradle-plugin:[^']*'", f"jp-gradle-plugin:{self.version}'",
                                     script.read_text()))
        return target

    def outcome(self, ok, passed, failed=None, details=""):
        """PASS PASSED when OK, else FAIL FAILED (PASSED when None) with DETAILS."""
        return self.checks.check(ok, passed, passed if failed is None else failed, details)

    def folded_calls(self, profiles):
        return self.plugin.folded(profiles, "calls")

    def fib_calls(self, profiles):
        """The calls of Fib.fib in PROFILES, all contexts together."""
        return sum(int(line.split()[-1]) for line in self.folded_calls(profiles) if FIB_CALLS.search(line))

    def tests_in(self, profiles):
        """The test classes that have contexts in PROFILES, each followed by a space."""
        names = {match.group(1) for match in map(TEST_CLASS.match, self.folded_calls(profiles)) if match}
        return "".join(f"{name} " for name in sorted(names))

    # -- 0. set-up on a machine without Gradle ----------------------------------------------------

    def set_up(self):
        """The demo and the test command install what is missing (scripts/lib/ensure-tools.sh).
        Their set-up step alone (JP_ENSURE_DRY_RUN=1) with a PATH that has everything this machine
        has but gradle would install Gradle, and only Gradle."""
        no_gradle = self.work / "path-without-gradle"
        no_gradle.mkdir()
        for directory in filter(None, os.environ.get("PATH", "").split(":")):
            for tool in sorted(pathlib.Path(directory).glob("*")):
                link = no_gradle / tool.name
                if tool.name != "gradle" and os.access(tool, os.X_OK) and tool.is_file() \
                        and not os.path.lexists(link):
                    link.symlink_to(tool)
        env = dict(os.environ, PATH=str(no_gradle), JP_ENSURE_DRY_RUN="1")
        log = self.log("ensure")
        for command in ("scripts/demo.sh", "integration-tests/run.sh gradle"):
            status = commands.run_logged(["bash", *command.split()], log, cwd=ROOT, env=env)
            self.outcome(status == 0 and WOULD_INSTALL_GRADLE in text(log).splitlines(),
                         f"set-up: without gradle on PATH, bash {command} would install gradle, and nothing else",
                         f"set-up: without gradle on PATH, bash {command} would install gradle", shown(log))

    # -- 1. build and install ---------------------------------------------------------------------

    def install(self):
        self.jp = build.build_jp()
        self.plugin = PluginChecks(self.checks, self.jp, self.work, self.version)
        mvn_log = self.log("mvn")
        if commands.run_logged(["mvn", "-q", "-B", "-f", str(ROOT / "pom.xml"), "package", "-DskipTests",
                                "-pl", "gradle-plugin,gradle-plugin/marker", "-am"], mvn_log) != 0:
            print(shown(mvn_log, 40), end="", flush=True)
            raise build.SuiteError("mvn package failed")
        build.install_jp(self.repo, MODULES)
        self.checks.pass_(f"install: jp-runtime, jp-engine, jp-gradle-plugin and its marker {self.version} "
                          "in a throwaway repository")

    # -- 2. the Gradle API the plugin uses --------------------------------------------------------

    def api(self):
        version_text = commands.output([self.gradle, "--version"])[0]
        self.gradle_version = next((line.split()[1] for line in version_text.splitlines()
                                    if line.startswith("Gradle ") and len(line.split()) > 1), "")
        path_gradle = shutil.which("gradle")
        gradle_lib = pathlib.Path(os.path.realpath(path_gradle)).parent.parent / "lib" if path_gradle else None
        groovy = pathlib.Path("/usr/share/java/groovy-all.jar")
        if self.gradle_version != "4.4.1" or not gradle_lib or not gradle_lib.is_dir() or not groovy.is_file():
            self.checks.skip(f"api: needs Debian's Gradle 4.4.1 (found {self.gradle_version or 'none'})")
            return
        guarded = ["org.jpprof.gradle.Compat$LazyTasks", "org.jpprof.gradle.Compat$MainClassProperty",
                   "org.jpprof.gradle.Compat$NewerTestSettings", "org.jpprof.gradle.TestSettings$JUnitPlatform",
                   "org.jpprof.gradle.TestSettings$JUnitPlatform$1"]
        deps = [groovy, "/usr/share/java/guava.jar", "/usr/share/java/slf4j-api.jar"]
        log = self.log("api")
        status = commands.run_logged(["java", str(GRADLE_PROJECTS / "ApiCheck.java"),
                                      str(ROOT / f"gradle-plugin/target/jp-gradle-plugin-{self.version}.jar"),
                                      str(gradle_lib), *[arg for name in guarded for arg in ("--guarded", name)],
                                      *[arg for dep in deps for arg in ("--deps", str(dep))]], log)
        self.outcome(status == 0, f"api: {commands.tail(log, 1)}",
                     f"api: the plugin calls what Gradle {self.gradle_version} lacks", shown(log))

    # -- 3. the demo ------------------------------------------------------------------------------

    def demo(self):
        work, checks = self.work, self.checks
        self.demo_dir = demo = self.copy_project(DEMO_SOURCES, work / "demo")
        classes = demo / "build/classes/java/main"
        before = None
        if self.gradle_run("classes", demo, "classes"):
            before = digest(classes)
        else:
            checks.fail("demo: gradle classes", shown(self.log("classes")))
        self.outcome(self.gradle_run("demo", demo, *TASKS),
                     f"demo: gradle {' '.join(TASKS)} on a plain copy (cp -r) of examples/gradle-demo "
                     f"({self.gradle_version})", details=shown(self.log("demo"), 40))

        tests, broken = surefire.counts(demo / "build/test-results/jpProfileTest")
        self.outcome(tests > 0 and broken == 0, f"demo: {tests} tests passed on instrumented classes",
                     f"demo: tests on instrumented classes (tests: {tests}, failures and errors: {broken})")

        self.outcome(bool(before) and digest(classes) == before
                     and not files.same_bytes(classes / LEADERBOARD_CLASS,
                                              demo / "build/jp/classes/main" / LEADERBOARD_CLASS),
                     "demo: compiler output untouched, build/jp/classes/main instrumented")

        self.demo_profiles = glob(demo, "build/jp/profiles/jpProfileTest/run-*/jpProfileTest-*.jpprof")
        self.plugin.demo_profiles("build/jp/profiles/jpProfileTest/run-*", *self.demo_profiles)
        self.per_test_demo()

        html, report = demo / "build/reports/jp/index.html", demo / "build/reports/jp/report.txt"
        if complete_page(html) and "Leaderboard.rank" in text(html) \
                and RANK_IN_REPORT in text(report) \
                and found("^jp: report of [0-9]* profiles?: " + re.escape(f"{html} and report.txt"), self.log("demo")):
            checks.pass_(f"demo: jpReport wrote build/reports/jp/index.html ({html.stat().st_size} bytes, a complete "
                         "page) and report.txt naming Leaderboard.rank")
        else:
            checks.fail("demo: jpReport wrote build/reports/jp/index.html (a complete page) and report.txt naming "
                        "Leaderboard.rank", shown(self.log("demo")) + (shown(report, 15) if report.is_file() else ""))
        self.ide()

    def lines(self):
        """3b: `jp { lines = true }` (with the demo's precise BBA) counts bytecodes per source line:
        report.txt lists Leaderboard.rank's lines, which add up to its own bytecodes in the hot
        methods, and the page holds the method's source from src/main/java beside the counts."""
        lines = self.copy_project(DEMO_SOURCES, self.work / "lines")
        append(lines / "build.gradle", "\njp {\n    lines = true\n}\n")
        built = self.gradle_run("lines", lines, *TASKS)
        report, html = lines / "build/reports/jp/report.txt", lines / "build/reports/jp/index.html"
        hot_methods = text(report).partition("== Hot methods")[2].partition("\n== ")[0]
        hot = re.search(r"^ *([0-9,]+) .*  " + re.escape(RANK_IN_REPORT) + "$", hot_methods, re.MULTILINE)
        by_lines = re.search(r"^" + re.escape(RANK_IN_REPORT) + r"  ([0-9,]+) bytecodes, ([0-9]+) lines?$",
                             text(report), re.MULTILINE)
        source = '"file":"org/example/leaderboard/Leaderboard.java"' in text(html) \
            and "ranked.set(j + 1, current);" in text(html)
        self.outcome(built and "== Lines of the hot methods" in text(report) and hot is not None
                     and by_lines is not None and by_lines.group(1) == hot.group(1) and source,
                     f"lines: jp {{ lines = true }}: report.txt gives Leaderboard.rank's "
                     f"{by_lines.group(2) if by_lines else '?'} lines, adding up to its "
                     f"{hot.group(1) if hot else '?'} own bytecodes, and the page shows them beside "
                     "Leaderboard.java",
                     "lines: jp { lines = true }: report.txt's lines of Leaderboard.rank, adding up to its own "
                     "bytecodes, and the page's source of Leaderboard.java",
                     shown(self.log("lines"), 40) + (shown(report, 60) if report.is_file() else ""))

    def metrics(self):
        """3d: `jp { metrics = ['allocations'] }`: the instrumented classes count allocations, and
        report.txt totals them, labelled exact, beside the calls of the demo's run without it; with
        `baselineMetric = 'allocations'`, jpBaseline records allocations and jpCheck gates them."""
        project = self.copy_project(DEMO_SOURCES, self.work / "metrics")
        append(project / "build.gradle", "\njp {\n    metrics = ['allocations']\n    baselineMetric = 'allocations'\n"
                                         "    methodFloor = 0\n}\n")
        built = self.gradle_run("metrics", project, *TASKS, "jpBaseline")
        report = project / "build/reports/jp/report.txt"
        row = first_line_with("total allocations ", report)
        calls = [first_line_with("total calls", path).split()[-1:] for path in
                 (report, self.work / "demo/build/reports/jp/report.txt")]
        self.outcome(built and row.endswith("objects (exact)") and calls[0] and calls[0] == calls[1],
                     f"metrics: jp {{ metrics = ['allocations'] }}: report.txt has `{' '.join(row.split())}` "
                     f"beside the same {calls[0][0] if calls[0] else '?'} calls as without it",
                     "metrics: jp { metrics = ['allocations'] }: report.txt's allocations labelled exact, beside "
                     "the demo's calls",
                     shown(self.log("metrics"), 40) + (shown(report, 20) if report.is_file() else ""))
        baseline = project / "jp-baseline.txt"
        checked = self.gradle_run("metrics-check", project, "jpCheck")
        self.outcome(built and checked and found("^metric allocations$", baseline)
                     and found("^method [0-9]* [0-9]* ", baseline) and found("^jp check: passed", self.log("metrics-check")),
                     "metrics: baselineMetric = 'allocations': jpBaseline records allocations, and jpCheck gates "
                     "the same run's allocations and passes",
                     details=shown(self.log("metrics-check"), 30) + (shown(baseline, 10) if baseline.is_file() else ""))

    def jfr(self):
        """3c: `jp { jfr = true }`: the test JVM records JFR beside its profile, and jpReport attaches
        the recording: report.txt totals the CPU samples, labelled sampled, and the calls are those
        of the demo's run without it."""
        jfr = self.copy_project(DEMO_SOURCES, self.work / "jfr")
        append(jfr / "build.gradle", "\njp {\n    jfr = true\n}\n")
        built = self.gradle_run("jfr", jfr, *TASKS)
        report = jfr / "build/reports/jp/report.txt"
        recordings = glob(jfr / "build/jp/profiles/jpProfileTest", "run-*/jfr/*.jfr")
        row = first_line_with("total cpu-samples", report)
        # Calls are exact: the same as in the demo's run without JFR.
        calls = [first_line_with("total calls", path).split()[-1:] for path in
                 (report, self.work / "demo/build/reports/jp/report.txt")]
        self.outcome(built and recordings and row.endswith("samples (sampled, not reproducible)")
                     and calls[0] and calls[0] == calls[1],
                     f"jfr: jp {{ jfr = true }}: {len(recordings)} recording(s) beside the profiles, and report.txt "
                     f"has `{' '.join(row.split())}` beside the same {calls[0][0] if calls[0] else '?'} calls as "
                     "without it",
                     "jfr: jp { jfr = true }: a recording beside the profiles, and report.txt's CPU samples "
                     "labelled sampled, beside the demo's calls",
                     shown(self.log("jfr"), 40) + (shown(report, 20) if report.is_file() else ""))
        if self.suite == "gradle8":
            # The setting is read through providers: the configuration cache stores it and reuses it.
            cc = ("clean", *TASKS, "--configuration-cache")
            reused = self.gradle_run("jfr-cc-1", jfr, *cc) and self.gradle_run("jfr-cc-2", jfr, *cc) \
                and found("^Configuration cache entry reused", self.log("jfr-cc-2"))
            row = first_line_with("total cpu-samples", report)
            self.outcome(reused and row.endswith("samples (sampled, not reproducible)"),
                         "jfr: with the configuration cache, stored and reused, the test JVM still records JFR and "
                         f"report.txt has `{' '.join(row.split())}`",
                         "jfr: with the configuration cache, stored and reused, report.txt's CPU samples",
                         "".join(shown(self.log(name), 15) for name in ("jfr-cc-1", "jfr-cc-2")))

    def per_test_demo(self):
        """3a: the demo is plain JUnit 4, run by Gradle's own JUnit 4 executor (Gradle 4.4.1 has
        nothing else): with junit's jar swapped for its hooked copy, every test is its own
        top-level context, run once, StatsTest's instance set-up (a field of four players) counts
        inside each of its tests, and the class has its own context from JUnit 4.13's class
        notifications; junit's jar itself is untouched."""
        demo = self.demo_dir
        self.plugin.demo_tests(self.work / "demo-tests.folded", demo / "build/test-results/jpProfileTest",
                               *self.demo_profiles)
        hooked = glob(demo, "build/jp/junit/junit-*.jar")
        # Gradle keeps a downloaded file in a directory named after its SHA-1: a changed jar would not match.
        junit_jar = next(iter(glob(self.home / "caches/modules-2/files-2.1/junit/junit", "**/junit-4.13.2.jar")), None)
        ok = len(hooked) == 1 and junit_jar is not None \
            and hashlib.sha1(junit_jar.read_bytes()).hexdigest() == junit_jar.parent.name \
            and [entry for entry in files.jar_differences(junit_jar, hooked[0]) if not entry.endswith("/")] \
            == [NOTIFIER]
        found_jars = " ".join(map(str, hooked)) or f"{demo}/build/jp/junit/junit-*.jar"
        self.outcome(ok, "per-test: demo: build/jp/junit holds junit's jar with RunNotifier hooked and every other "
                         "entry the same; junit's jar untouched",
                     f"per-test: demo: a hooked copy of junit's jar in build/jp/junit (found: {found_jars})")

    def ide(self):
        work, demo = self.work, self.demo_dir
        ide_main, ide_off = work / "ide-main.gradle", work / "ide-off.gradle"
        ide_main.write_text(IDE_MAIN)
        if self.gradle_run("ide", demo, "-I", ide_main, "jpIdeSetup"):
            self.plugin.ide_settings("jpIdeSetup", demo, "JP gradle-demo", demo / "build/jp/ide.txt",
                                     demo / "build/jp/profiles", demo / "build/jp/classes/main",
                                     demo / "build/classes/java/main")
        else:
            self.checks.fail("ide: jpIdeSetup prints the class path and JVM options", shown(self.log("ide")))
        shutil.rmtree(demo / ".run", ignore_errors=True)
        (demo / "build/jp/ide.txt").unlink(missing_ok=True)
        ide_off.write_text(IDE_OFF)
        ok = self.gradle_run("ide-off", demo, "-I", ide_off, "jpIdeSetup")
        self.outcome(ok and (demo / "build/jp/ide.txt").is_file() and not (demo / ".run").exists(),
                     "ide: jpIdeSetup { ideFiles = false } writes build/jp/ide.txt and no run configuration",
                     details=shown(self.log("ide-off")))

    # -- 3b. two builds at once in one project ----------------------------------------------------

    def at_once(self):
        """Each build's tests write into a run directory of their own, and each jpReport reports its
        own run: one profile, with the calls of one run (the demo's above), not those of both.
        (Gradle 4.4.1 runs the two side by side.)"""
        twice = self.copy_project(DEMO_SOURCES, self.work / "twice")
        append(twice / "build.gradle", SIDES)
        self.single_calls = single = self.plugin.total_calls(glob(self.demo_dir,
                                                                  "build/jp/profiles/jpProfileTest/run-*/*.jpprof"))
        # The outputs the two builds share (the instrumented classes, the runtime's jars, junit's hooked
        # jar) are made first: Gradle cannot snapshot an output that another build is writing at
        # that moment, JP's task or not. The runs' directory is what the two builds share here.
        prepare = ("testClasses", "jpInstrument", "jpRuntimeJars", "jpHookJUnit4")
        if not self.gradle_run("twice-prepare", twice, *prepare):
            self.checks.fail(f"at once: gradle {' '.join(prepare)}", shown(self.log("twice-prepare")))
            return
        started = [self.gradle_start(f"twice-{side}", twice, *TASKS, f"-Pside={side}") for side in (1, 2)]
        statuses = [process.wait() == 0 for process in started]
        runs = [run for run in glob(twice, "build/jp/profiles/jpProfileTest/run-*") if run.is_dir()]
        totals = [self.plugin.total_calls(glob(run, "*.jpprof")) for run in runs]
        if all(statuses) and len(runs) == 2 and totals == [single, single] \
                and all(found("^" + re.escape(f"jp: report of 1 profile: {twice}/build/reports/jp-{side}/"),
                              self.log(f"twice-{side}")) for side in (1, 2)):
            self.checks.pass_(f"at once: two builds of jpProfileTest in one project, each with a run of its own "
                              f"({single} calls each) and a report of it")
        else:
            reports = "".join(f"{line}\n" for side in (1, 2) for line in text(self.log(f"twice-{side}")).splitlines()
                              if line.startswith("jp: report of"))
            self.checks.fail(f"at once: two builds, a run each (runs: {len(runs)}, "
                             f"calls: {' '.join(map(str, totals)) or 'none'}, one run: {single})",
                             reports + shown(self.log("twice-1"), 10) + shown(self.log("twice-2"), 10))

    # -- 4. incremental work ----------------------------------------------------------------------

    def incremental(self):
        work, demo = self.work, self.demo_dir
        ok = self.gradle_run("again", demo, *TASKS)
        self.outcome(ok and self.has_outcome("again", "jpInstrument", "UP-TO-DATE")
                     and self.has_outcome("again", "jpProfileTest", "UP-TO-DATE"),
                     "incremental: nothing changed, jpInstrument and jpProfileTest UP-TO-DATE",
                     details=shown(self.log("again")))

        classes = len(list((demo / "build/classes/java/main").rglob("*.class")))
        ok = self.gradle_run("rerun", demo, "jpInstrument", "--rerun-tasks")
        self.outcome(ok and f": 0 rewritten, {classes} reused," in self.instrumented("rerun"),
                     f"incremental: rerun, the engine reuses all {classes} classes "
                     f"({self.counts('rerun')})",
                     f"incremental: rerun, the engine reuses all {classes} classes: {self.instrumented('rerun')}",
                     shown(self.log("rerun")))

        edit(demo / "src/main/java/org/example/leaderboard/Stats.java",
             'throw new IllegalArgumentException("no players")',
             'throw new IllegalArgumentException("no players at all")')
        ok = self.gradle_run("edit", demo, "jpInstrument")
        self.outcome(ok and f": 1 rewritten, {classes - 1} reused," in self.instrumented("edit"),
                     f"incremental: one class edited, one rewritten ({self.counts('edit')})",
                     f"incremental: one class edited, one rewritten: {self.instrumented('edit')}",
                     shown(self.log("edit")))
        clean = work / "clean"
        shutil.copytree(demo, clean, symlinks=True)
        for output in ("build", ".gradle"):
            shutil.rmtree(clean / output, ignore_errors=True)
        diff_log = self.log("diff")
        ok = self.gradle_run("clean", clean, "jpInstrument") and commands.run_logged(
            ["diff", "-r", demo / "build/jp/classes/main", clean / "build/jp/classes/main"], diff_log) == 0
        self.outcome(ok, "incremental: the output after the edit equals a clean build's, byte for byte",
                     details=shown(diff_log))

        (demo / "src/main/java/org/example/leaderboard/Main.java").unlink()
        ok = self.gradle_run("delete", demo, "jpInstrument")
        self.outcome(ok and " 1 deleted," in self.instrumented("delete")
                     and not (demo / "build/jp/classes/main/org/example/leaderboard/Main.class").exists(),
                     "incremental: a deleted class loses its instrumented class",
                     f"incremental: a deleted class loses its instrumented class: {self.instrumented('delete')}",
                     shown(self.log("delete")))
        self.build_cache(clean)

    def build_cache(self, clean):
        """A copy of the project in another directory takes jpInstrument's output from the cache
        (its inputs are relocatable), and the engine, without its cache, writes the same bytes."""
        work = self.work
        relocated = work / "relocated"
        cache_settings = f'buildCache {{\n    local {{\n        directory = file("{work}/build-cache")\n    }}\n}}\n'
        append(clean / "settings.gradle", cache_settings)
        shutil.copytree(clean, relocated, symlinks=True)
        for output in ("build", ".gradle"):
            shutil.rmtree(relocated / output, ignore_errors=True)
        append(relocated / "settings.gradle", cache_settings)
        diff_log = self.log("diff")
        ok = self.gradle_run("cache-store", clean, "clean", "jpInstrument", "--build-cache") \
            and self.gradle_run("cache-load", relocated, "jpInstrument", "--build-cache") \
            and self.has_outcome("cache-load", "jpInstrument", "FROM-CACHE") \
            and self.gradle_run("cache-rerun", relocated, "jpInstrument", "--rerun-tasks") \
            and commands.run_logged(["diff", "-r", clean / "build/jp/classes/main",
                                     relocated / "build/jp/classes/main"], diff_log) == 0
        self.outcome(ok, "build cache: a relocated copy takes jpInstrument FROM-CACHE; rerun without the engine's "
                         "cache, same bytes", "build cache: a relocated copy takes jpInstrument FROM-CACHE",
                     shown(self.log("cache-load")) + shown(diff_log))

    # -- 5. one daemon ----------------------------------------------------------------------------

    def in_daemon(self, name, *args):
        """A build in the suite's own daemon, with its own engine cache; whether it passed."""
        env = dict(os.environ, GRADLE_USER_HOME=str(self.daemon_home))
        return commands.run_logged(["gradle", "--daemon", "--console=plain", "--offline",
                                    f"-Dmaven.repo.local={self.repo}",
                                    f"-Djp.engine.cacheDir={self.work}/daemon-engine", *args],
                                   self.log(name), cwd=self.daemon_dir, env=env) == 0

    def daemon(self):
        self.daemon_dir = daemon = self.copy_project(DEMO_SOURCES, self.work / "daemon")
        (daemon / "extra").mkdir()
        started = "Starting a Gradle Daemon"
        ok = self.in_daemon("daemon1", "jpInstrument") and self.in_daemon("daemon2", "jpInstrument", "--rerun-tasks")
        self.outcome(ok and started not in text(self.log("daemon2"))
                     and ": 0 rewritten, " in self.instrumented("daemon2"),
                     "daemon: two builds in a row in one daemon",
                     details=shown(self.log("daemon1"), 10) + shown(self.log("daemon2")))
        # Another build-script class path: Gradle loads the plugin, and so the engine, in a new class loader.
        script = daemon / "build.gradle"
        extra = "classpath files('extra')\n        "
        script.write_text(re.sub("classpath 'org.jpprof:jp-gradle-plugin", lambda match: extra + match.group(),
                                 script.read_text()))
        # jpReport reads the demo's profiles (this daemon's home has no junit for jpProfileTest, offline).
        copied = daemon / "build/jp/profiles/jpProfileTest/run-copied"
        copied.mkdir(parents=True)
        for profile in glob(self.demo_dir, "build/jp/profiles/jpProfileTest/run-*/*.jpprof"):
            shutil.copy(profile, copied)
        ok = self.in_daemon("daemon3", "jpInstrument", "jpReport", "--rerun-tasks")
        self.outcome(ok and started not in text(self.log("daemon3"))
                     and ": 0 rewritten, " in self.instrumented("daemon3")
                     and found("^jp: report of [0-9]* profiles?: ", self.log("daemon3"))
                     and bool(glob(self.work / "daemon-engine", "libjp_jni-*-1.so")),
                     "daemon: a second class loader in the same daemon loads the engine (a copy of its library), "
                     "instruments and reports", "daemon: a second class loader in the same daemon loads the engine",
                     shown(self.log("daemon3")))

    def stop_daemon(self):
        if self.daemon_home.is_dir():
            commands.run(["gradle", "--stop"], subprocess.DEVNULL, subprocess.DEVNULL,
                         env=dict(os.environ, GRADLE_USER_HOME=str(self.daemon_home)))

    # -- 6. several modules -----------------------------------------------------------------------

    def multi_module(self):
        """app's tests run core's classes (core's jar on their class path) instrumented by core's
        jpInstrument: TableTest's row(7) calls Fib.fib 59 times (1+1+3+5+9+15+25 for fib(0..6)). The
        root project's jpAggregateReport merges both projects' profiles. -Pjp.skip skips every task
        of JP's in every project, and no run of profiles starts."""
        checks = self.checks
        multi = self.copy_project(GRADLE_PROJECTS / "multi-module", self.work / "multi")
        log = self.log("multi")
        if not self.gradle_run("multi", multi, *TASKS, "jpAggregateReport"):
            checks.fail("multi: gradle jpProfileTest jpAggregateReport", shown(log))
            return
        core = glob(multi, "core/build/jp/profiles/jpProfileTest/run-*/*.jpprof")
        app = glob(multi, "app/build/jp/profiles/jpProfileTest/run-*/*.jpprof")
        core_fib = re.compile(r"^\[test\] org\.acme\.core\.FibTest#[^;]*;"
                              + re.escape("org.acme.core.Fib.fib(int):long;org.acme.core.Fib.fib(int):long"))
        app_row = re.compile(r"^\[test\] org\.acme\.app\.TableTest#[^;]*;"
                             + re.escape("org.acme.app.Table.row(int):java.lang.String"))
        self.outcome(bool(core) and bool(app)
                     and FIB_IN_REPORT in text(multi / "core/build/reports/jp/report.txt")
                     and ROW_IN_REPORT in text(multi / "app/build/reports/jp/report.txt")
                     and ends_page(multi / "core/build/reports/jp/index.html")
                     and ends_page(multi / "app/build/reports/jp/index.html")
                     and any(map(core_fib.match, self.folded_calls(core)))
                     and any(map(app_row.match, self.folded_calls(app))),
                     "multi: two modules, app depending on core, each profiled on its instrumented classes (under "
                     "each test's context), each with its report",
                     "multi: profiles and reports of core (Fib.fib) and app (Table.row)")
        app_fib = self.fib_calls(app)
        app_row_fib = re.compile(r"^\[test\] org\.acme\.app\.TableTest#[^;]*;"
                                 + re.escape("org.acme.app.Table.row(int):java.lang.String;"
                                             "org.acme.core.Fib.fib(int):long "))
        self.outcome(app_fib == 59 and any(map(app_row_fib.match, self.folded_calls(app))),
                     "multi: app's tests run core's classes instrumented: Fib.fib called exactly 59 times under "
                     "TableTest's Table.row",
                     f"multi: core's classes instrumented in app's tests (Fib.fib calls in app's profile: {app_fib}, "
                     "expected 59)")
        aggregate = multi / "build/reports/jp/aggregate"
        self.outcome(all(name in text(aggregate / "report.txt") for name in
                         (FIB_IN_REPORT, ROW_IN_REPORT, "org.acme.core.FibTest", "org.acme.app.TableTest")) and ends_page(aggregate / "index.html"),
                     "multi: the root project's jpAggregateReport holds both projects' tests and methods",
                     "multi: jpAggregateReport of core and app", shown(log))

        def runs():
            return len(glob(multi, "*/build/jp/profiles/jpProfileTest/run-*"))

        runs_before = runs()
        ok = self.gradle_run("multi-skip", multi, *TASKS, "jpAggregateReport", "-Pjp.skip", "--rerun-tasks")
        self.outcome(ok and "jpInstrument" not in text(self.log("multi-skip"))
                     and self.has_outcome("multi-skip", "core:jpProfileTest", "SKIPPED")
                     and self.has_outcome("multi-skip", "app:jpReport", "SKIPPED")
                     and self.has_outcome("multi-skip", "jpAggregateReport", "SKIPPED") and runs() == runs_before,
                     "multi: -Pjp.skip skips every task of JP's in every project, instruments nothing; no run of "
                     "profiles started", "multi: -Pjp.skip skips JP's tasks", shown(self.log("multi-skip")))

    # -- 6a. JP on any test task ------------------------------------------------------------------

    def test_tasks(self):
        """`test { jp { enabled = true } }` (with a filter) and a test task of the build's own
        (integrationTest, another filter, forkEvery): `gradle test integrationTest` profiles both,
        each into build/jp/profiles/<task>/ with its own tests, and one jpReport follows and merges
        both runs. jpProfileTest, run as test runs, keeps test's filter."""
        tasks_dir = self.copy_project(DEMO_SOURCES, self.work / "test-tasks")
        append(tasks_dir / "build.gradle", TEST_TASKS)
        log = self.log("test-tasks")
        if self.gradle_run("test-tasks", tasks_dir, "test", "integrationTest"):
            test = glob(tasks_dir, "build/jp/profiles/test/run-*/test-*.jpprof")
            integration = glob(tasks_dir, "build/jp/profiles/integrationTest/run-*/integrationTest-*.jpprof")
            test_classes = self.tests_in(test) if test else ""
            integration_classes = self.tests_in(integration) if integration else ""
            reports = [line for line in text(log).splitlines() if line.startswith("jp: report of ")]
            self.outcome(test_classes == "StatsTest " and integration_classes == "LeaderboardTest "
                         and len(reports) == 1 and reports[0].startswith("jp: report of 2 profiles")
                         and "Leaderboard.rank" in text(tasks_dir / "build/reports/jp/report.txt"),
                         "test tasks: test and integrationTest with jp.enabled each profile their own tests (their "
                         "filters kept), and one jpReport merges both",
                         f"test tasks: test and integrationTest with jp.enabled profile their tests (test: "
                         f"{test_classes}, integrationTest: {integration_classes})", shown(log))
        else:
            self.checks.fail("test tasks: gradle test integrationTest with jp.enabled", shown(log))
        ok = self.gradle_run("test-tasks-copy", tasks_dir, "jpProfileTest")
        profiles = glob(tasks_dir, "build/jp/profiles/jpProfileTest/run-*/*.jpprof")
        self.outcome(ok and bool(profiles) and self.tests_in(profiles) == "StatsTest ",
                     "test tasks: jpProfileTest runs the tests as test does, test's filter included",
                     "test tasks: jpProfileTest keeps test's filter", shown(self.log("test-tasks-copy")))

    # -- 6b. TestNG -------------------------------------------------------------------------------

    def testng(self):
        """The maven-plugin suite's TestNG project (its sources, the TestNG of its POM) built with
        useTestNG(): nothing of JP's in the build script but the plugin; TestNG loads JP's listener."""
        testng = self.work / "testng"
        release = testng_version(text(TESTNG_POM))
        shutil.copytree(ROOT / "integration-tests/maven/testng-demo/src", testng / "src", symlinks=True)
        (testng / "build.gradle").write_text(f"""buildscript {{
    repositories {{ mavenLocal() }}
    dependencies {{ classpath 'org.jpprof:jp-gradle-plugin:{self.version}' }}
}}
apply plugin: 'java'
apply plugin: 'org.jpprof.jp'
repositories {{ mavenCentral() }}
dependencies {{ testImplementation 'org.testng:testng:{release}' }}
test {{ useTestNG() }}
""")

        def runs():
            return [run for run in glob(testng, "build/jp/profiles/jpProfileTest/run-*") if run.is_dir()]

        first = runs() if self.gradle_run("testng", testng, "jpProfileTest", needs="org.testng") else []
        if first and self.gradle_run("testng-again", testng, "jpProfileTest", "--rerun-tasks", needs="org.testng"):
            second = [run for run in runs() if run not in first]
            self.plugin.testng(f"testng (TestNG {release}, useTestNG())", f"{first[0]}/",
                               f"{second[0]}/" if second else "none")
        else:
            self.checks.fail(f"per-test: testng: gradle jpProfileTest with useTestNG() (TestNG {release or '?'})",
                             shown(self.log("testng")) + shown(self.log("testng-again")))

    # -- 7. bad input -----------------------------------------------------------------------------

    def must_fail(self, name, directory, failure, *args, repo=None):
        """Runs the build NAME, which must fail: a FAIL line with FAILURE when it passes; whether it failed."""
        if self.gradle_run(name, directory, *args, repo=repo):
            self.checks.fail(failure, shown(self.log(name)))
            return False
        return True

    def no_crash(self, directory):
        return no_crash(directory, self.work, self.home / "daemon")

    def bad_input(self):
        work, checks = self.work, self.checks
        self.bad = bad = self.copy_project(DEMO_SOURCES, work / "bad")
        if self.gradle_run("bad-classes", bad, "classes"):
            broken = bad / "build/classes/java/main/org/example/leaderboard/Broken.class"
            broken.write_bytes(b"\xca\xfe\xba\xbe\x00\x00\x00\x3d\x00\x10garbage")
            log = self.log("bad")
            if self.must_fail("bad", bad, "bad input: a corrupt class fails jpInstrument", "jpInstrument", "-x",
                              "compileJava"):
                self.outcome("Broken.class" in text(log) and "could not be instrumented" in text(log)
                             and self.no_crash(bad),
                             "bad input: a corrupt class fails jpInstrument naming it: "
                             + first_line_with("Broken.class", log),
                             "bad input: the failure names Broken.class, and no JVM crashed", shown(log))
            broken.unlink()
        else:
            checks.fail("bad input: gradle classes", shown(self.log("bad-classes")))

        # Sources but no classes (compileJava excluded on a clean copy): jpInstrument fails naming the
        # directory, instead of instrumenting nothing.
        uncompiled = self.copy_project(DEMO_SOURCES, work / "uncompiled")
        log = self.log("uncompiled")
        if self.must_fail("uncompiled", uncompiled, "bad input: jpInstrument with sources but no classes fails",
                          "jpInstrument", "-x", "compileJava"):
            self.outcome(found(r"jp: jpInstrument: no class files in build/classes/java/main, but there are sources "
                               r"\(src/main/java/.*\.java\): compile them first", log),
                         "bad input: jpInstrument with sources but no classes fails: "
                         + first_match("jp: jpInstrument: no class files.*first", log),
                         "bad input: jpInstrument with sources but no classes names build/classes/java/main",
                         shown(log))

        # Settings the runtime would only warn about fail the build, naming the setting.
        for setting in ("agent = 'a periodic agent'", "granularity = 'ten'"):
            name = setting.split(" ")[0]
            wrong = self.copy_project(DEMO_SOURCES, work / f"wrong-{name}")
            append(wrong / "build.gradle", f"\njp {{\n    {setting}\n}}\n")
            log = self.log(f"wrong-{name}")
            if self.must_fail(f"wrong-{name}", wrong, f"bad input: jp {{ {setting} }} fails the build",
                              "jpProfileTest"):
                self.outcome(found(f"jp: jp\\.{name} = '[^']*' is (neither|not).*in the jp {{ }} block of project :",
                                   log),
                             f"bad input: jp {{ {setting} }} fails the build: "
                             + first_match(f"jp: jp\\.{name} = .*", log),
                             f"bad input: jp {{ {setting} }} fails the build naming jp.{name}", shown(log))

        # An output directory that cannot be created: a file stands where it should be.
        blocked = bad / "build/jp/classes/main"
        shutil.rmtree(blocked, ignore_errors=True)
        blocked.parent.mkdir(parents=True, exist_ok=True)
        blocked.write_text("not a directory\n")
        log = self.log("bad-output")
        if self.must_fail("bad-output", bad, "bad input: an output directory that cannot be created fails "
                          "jpInstrument", "jpInstrument", "-x", "compileJava"):
            self.outcome(str(blocked) in text(log) and self.no_crash(bad),
                         "bad input: an output directory that cannot be created fails jpInstrument naming it: "
                         + first_line_with(str(blocked), log),
                         f"bad input: the failure names {blocked}, and no JVM crashed", shown(log))
        if blocked.is_file():
            blocked.unlink()
        self.bad_reports()
        self.no_runtime()

    def bad_reports(self):
        """An unreadable profile, and a report file that cannot be written: jpReport fails naming
        the file. With no profiles at all, jpReport succeeds and says where it looked."""
        bad = self.bad
        profiles_dir = bad / "build/jp/profiles/jpProfileTest/run-copied"
        reports = bad / "build/reports/jp"
        profiles_dir.mkdir(parents=True, exist_ok=True)
        for profile in glob(self.demo_dir, "build/jp/profiles/jpProfileTest/run-*/*.jpprof"):
            shutil.copy(profile, profiles_dir)
        truncated = profiles_dir / "truncated.jpprof"
        truncated.write_text("jp-profile 1\nframe 1 x\n")
        log = self.log("bad-profile")
        if self.must_fail("bad-profile", bad, "bad input: an unreadable profile fails jpReport", "jpReport"):
            self.outcome(f"{truncated}:3: truncated" in text(log) and not (reports / "index.html").exists()
                         and self.no_crash(bad),
                         "bad input: an unreadable profile fails jpReport naming it, and no report is written: "
                         + first_line_with("truncated.jpprof", log),
                         "bad input: the failure names truncated.jpprof, and no report is written", shown(log))
        truncated.unlink()
        # A directory, with a file in it, where the report file should go: it cannot be replaced.
        (reports / "index.html" / "in-the-way").mkdir(parents=True)
        log = self.log("bad-report")
        if self.must_fail("bad-report", bad, "bad input: a report file that cannot be written fails jpReport",
                          "jpReport"):
            self.outcome(f"{reports}/index.html: " in text(log) and self.no_crash(bad),
                         "bad input: a report file that cannot be written fails jpReport naming it: "
                         + first_line_with(f"{reports}/index.html: ", log),
                         f"bad input: the failure names {reports}/index.html, and no JVM crashed", shown(log))
        shutil.rmtree(reports / "index.html")
        for profile in glob(profiles_dir, "*.jpprof"):
            profile.unlink()
        ok = self.gradle_run("no-profiles", bad, "jpReport")
        self.outcome(ok and found("^" + re.escape(f"jp: no profiles to report on in {profiles_dir.parent.parent}; "
                                                  "run jpProfileTest first"), self.log("no-profiles")),
                     "no profiles: jpReport says so and succeeds", details=shown(self.log("no-profiles")))

    def no_runtime(self):
        """A jp-engine without the runtime jar inside: jpProfileTest fails naming that jar and the
        missing entry."""
        no_runtime = self.work / "m2-no-runtime"
        shutil.copytree(self.repo, no_runtime, symlinks=True)
        files.remove_entry(no_runtime / f"org/jpprof/jp-engine/{self.version}/jp-engine-{self.version}.jar",
                           "org/jpprof/engine/jp-runtime.jar")
        log = self.log("no-runtime")
        if self.must_fail("no-runtime", self.bad, "bad input: a jp-engine without the runtime fails jpProfileTest",
                          "jpProfileTest", repo=no_runtime):
            self.outcome(f"jp-engine-{self.version}.jar: this jp-engine has no org/jpprof/engine/jp-runtime.jar"
                         in text(log) and self.no_crash(self.bad),
                         "bad input: a missing runtime fails jpProfileTest naming it: "
                         + first_line_with("jp-runtime.jar", log),
                         f"bad input: the failure names jp-engine-{self.version}.jar and its missing "
                         "org/jpprof/engine/jp-runtime.jar, and no JVM crashed", shown(log))

    # -- 7b. the regression gate ------------------------------------------------------------------

    def gate(self):
        """jpBaseline records the demo's counts; a second run of the tests records the same bytes;
        jpCheck passes on the same code, fails naming Leaderboard.rank with its numbers once rank
        does more work, lets that through with tolerances set for it and for the tests that run it
        (each test has its own totals), and passes again once the change is reverted. A baseline of
        other settings is refused, a missing one explained (docs/regression-testing.md)."""
        work, checks = self.work, self.checks
        gate = self.copy_project(DEMO_SOURCES, work / "gate")
        append(gate / "build.gradle", GATE)
        baseline = gate / "jp-baseline.txt"
        rank = "org.example.leaderboard.Leaderboard.rank(Ljava/util/List;)Ljava/util/List;"
        leaderboard = gate / "src/main/java/org/example/leaderboard/Leaderboard.java"
        original = leaderboard.read_text()
        passed = "^jp check: passed"
        ok = self.gradle_run("gate-baseline", gate, "jpBaseline")
        if ok and found(f"^method [0-9]* [0-9]* {re.escape(rank)}$", baseline) \
                and found("^setting bba precise$", baseline) \
                and found("^jp: baseline .*jp-baseline.txt: ", self.log("gate-baseline")):
            checks.pass_(f"gate: jpBaseline wrote jp-baseline.txt ({text(baseline).count(chr(10))} lines, "
                         "bba precise, Leaderboard.rank recorded)")
        else:
            checks.fail("gate: jpBaseline wrote jp-baseline.txt", shown(self.log("gate-baseline")))
        first_baseline = text(baseline)
        # Per-test totals too: the baseline holds a `test` line for each test context (3a).
        test_lines = len(re.findall(r"^test [0-9]* [0-9]* org\.example\.leaderboard\.[A-Za-z]*Test#[a-zA-Z]*\(\)$",
                                    first_baseline, re.MULTILINE))
        ok = self.gradle_run("gate-again", gate, "cleanJpProfileTest", "jpBaseline")
        if ok and baseline.is_file() and text(baseline) == first_baseline and test_lines > 0:
            checks.pass_(f"gate: a second run of the tests gives a byte-identical baseline ({test_lines} per-test "
                         "totals in it)")
        else:
            (work / "baseline-1.txt").write_text(first_baseline)
            difference = commands.output(["diff", str(work / "baseline-1.txt"), str(baseline)])[0]
            checks.fail("gate: a second run of the tests gives a byte-identical baseline with per-test totals "
                        f"({test_lines} test lines)", "".join(f"{line}\n" for line in difference.splitlines()[:20]))
        ok = self.gradle_run("gate-pass", gate, "jpCheck")
        self.outcome(ok and found(passed, self.log("gate-pass")), "gate: jpCheck passes on the same code",
                     details=shown(self.log("gate-pass")))

        edit(leaderboard, "List<Player> ranked = new ArrayList<>(players);", "List<Player> ranked = new ArrayList<>("
             "players);\n        for (int k = 0; k < 100000; k++) { ranked.size(); }")
        regression = f"regression: method {re.escape(rank)}: [0-9]* -> [0-9]* bytecodes " \
                     r"\(\+[0-9]*, \+[0-9.]*%; tolerance 1%\)"
        log = self.log("gate-fail")
        ok = self.gradle_run("gate-fail", gate, "jpCheck")
        self.outcome(not ok and found("^" + regression, log)
                     and found("jp: [0-9]* regressions? beyond the tolerance against", log)
                     and f"| method | `{rank}` |" in text(gate / "build/reports/jp/check/jp-check.md"),
                     "gate: jpCheck fails once rank does more work: " + first_match("^" + regression, log),
                     "gate: jpCheck fails naming Leaderboard.rank with its numbers", shown(log))
        # jpBaseline kept the profiles it recorded, so the failing check wrote the diff of them against
        # its run; `jp diff` of the same two runs ranks rank first.
        runs = glob(gate, "build/jp/profiles/jpProfileTest/run-*")
        page = gate / "build/reports/jp/check-diff.html"
        kept = gate / "build/jp/baseline-profiles"
        self.plugin.gate_diff("jpCheck", log, page, page, kept,
                              runs[-1] if runs else gate / "build/jp/profiles/jpProfileTest/run-*")
        # Without them (a fresh clone), the failure says so and gives the jp diff command.
        if kept.is_dir():
            shutil.move(kept, work / "baseline-profiles")
            page.unlink(missing_ok=True)
        log = self.log("gate-unkept")
        self.outcome(not self.gradle_run("gate-unkept", gate, "jpCheck") and not page.exists()
                     and found("no profiles of the baseline's run in .*baseline-profiles to diff against: run "
                               "jpBaseline", log)
                     and "jp diff <profiles of the baseline" in text(log),
                     "gate: without the baseline's profiles, the failing jpCheck says so and how to get the diff",
                     details=shown(log))
        if (work / "baseline-profiles").is_dir():
            shutil.move(work / "baseline-profiles", kept)
        ok = self.gradle_run("gate-tolerant", gate, "jpCheck", "-PgateTolerant")
        self.outcome(ok and found(passed, self.log("gate-tolerant")),
                     "gate: tolerances set for Leaderboard.rank and the tests of LeaderboardTest let that regression "
                     "through", details=shown(self.log("gate-tolerant")))
        leaderboard.write_text(original)
        ok = self.gradle_run("gate-reverted", gate, "jpCheck")
        self.outcome(ok and found(passed, self.log("gate-reverted")),
                     "gate: jpCheck passes again once the change is reverted", details=shown(self.log("gate-reverted")))
        (gate / "other.txt").write_text(re.sub("^setting bba .*$", "setting bba default", text(baseline),
                                               flags=re.MULTILINE))
        ok = self.gradle_run("gate-other", gate, "jpCheck", "-PgateBaseline=other.txt")
        self.outcome(not ok and found(r"other\.txt: recorded with other settings than these profiles.*"
                                      "bba is `default` in the baseline, `precise` now", self.log("gate-other")),
                     "gate: a baseline of other settings is refused, naming the setting",
                     "gate: a baseline of other settings is refused", shown(self.log("gate-other")))
        ok = self.gradle_run("gate-missing", gate, "jpCheck", "-PgateBaseline=none.txt")
        self.outcome(not ok and found(r"none\.txt: no baseline here; record one .*gradle jpBaseline",
                                      self.log("gate-missing")),
                     "gate: a missing baseline fails saying how to record one", details=shown(self.log("gate-missing")))

    # -- 8. the plugin marker ---------------------------------------------------------------------

    def marker(self):
        release = self.version.removesuffix("-SNAPSHOT")
        if release != self.version:
            try:
                build.install_jp(self.repo, MODULES, release)
            except build.SuiteError:
                self.checks.fail(f"marker: cannot install {release}")
                return
        marker = self.copy_project(GRADLE_PROJECTS / "plugins-block", self.work / "marker")
        script = marker / "build.gradle"
        script.write_text(re.sub("id 'org.jpprof.jp' version '[^']*'", f"id 'org.jpprof.jp' version '{release}'",
                                 script.read_text()))
        ok = self.gradle_run("marker", marker, "tasks", "--all")
        self.outcome(ok and found("^jpProfileTest - ", self.log("marker")),
                     f"marker: plugins {{ id 'org.jpprof.jp' version '{release}' }} finds the plugin",
                     details=shown(self.log("marker")))

    # -- 9. a modern Gradle -----------------------------------------------------------------------

    def modern(self):
        """On Gradle 8: the demo with deprecations as errors, and a JUnit 5 project whose
        parameterized test's invocations are told apart, each with its @BeforeEach, as under Maven."""
        work = self.work
        strict = self.copy_project(DEMO_SOURCES, work / "strict")
        ok = self.gradle_run("strict", strict, *TASKS, "--warning-mode", "fail")
        self.outcome(ok, f"modern: gradle {' '.join(TASKS)} --warning-mode fail: no deprecation",
                     f"modern: gradle {' '.join(TASKS)} --warning-mode fail", shown(self.log("strict")))
        self.configuration_cache()
        self.jvm_test_suite()
        junit5 = self.copy_project(GRADLE_PROJECTS / "junit5", work / "junit5")
        shutil.copytree(ROOT / "integration-tests/maven/params-demo/src", junit5 / "src", symlinks=True)
        calls, bytecodes = work / "junit5-calls.folded", work / "junit5-bytecodes.folded"
        if self.gradle_run("junit5", junit5, "jpProfileTest", online=True):
            profiles = glob(junit5, "build/jp/profiles/jpProfileTest/run-*/*.jpprof")
            ok = bool(profiles) and self.plugin.report_to(profiles, "calls", calls) \
                and self.plugin.report_to(profiles, "bytecodes", bytecodes)
        else:
            ok = False
        if ok:
            self.plugin.params_contexts(calls, bytecodes)
        else:
            self.checks.fail("per-test: params: gradle jpProfileTest of a JUnit 5 project and its profile",
                             shown(self.log("junit5"), 40))

    def configuration_cache(self):
        """Stored by a first `clean` build, reused by the second and by a third with an unrelated
        environment variable changed; each runs the tests and reports that run."""
        cached = self.copy_project(DEMO_SOURCES, self.work / "cached")
        cc = ("clean", *TASKS, "--configuration-cache")
        ok = self.gradle_run("cc-1", cached, *cc, env={"JP_UNRELATED": "1"}) \
            and found("^Configuration cache entry stored", self.log("cc-1")) \
            and self.gradle_run("cc-2", cached, *cc, env={"JP_UNRELATED": "1"}) \
            and found("^Configuration cache entry reused", self.log("cc-2")) \
            and self.gradle_run("cc-3", cached, *cc, env={"JP_UNRELATED": "2"}) \
            and found("^Configuration cache entry reused", self.log("cc-3")) \
            and found("^" + re.escape(f"jp: report of 1 profile: {cached}/build/reports/jp/index.html"),
                      self.log("cc-3")) \
            and self.plugin.total_calls(glob(cached, "build/jp/profiles/jpProfileTest/run-*/*.jpprof")) \
            == self.single_calls
        self.outcome(ok, f"configuration cache: stored by gradle {' '.join(cc)}, reused twice (once with an "
                         f"environment variable changed), each build profiling its tests ({self.single_calls} calls) "
                         "and reporting them",
                     "configuration cache: stored, reused, reused with another environment",
                     "".join(shown(self.log(name), 15) for name in ("cc-1", "cc-2", "cc-3")))

    def jvm_test_suite(self):
        """A JVM test suite (integrationTest) of app with JP enabled on its test task: its class path
        holds app's own jar and core's jar, and both run instrumented: Fib.fib 59 times under
        Table.row. The whole two-project build under the configuration cache, stored then reused,
        with deprecations as errors."""
        suites = self.copy_project(GRADLE_PROJECTS / "multi-module", self.work / "suites")
        tests = suites / "app/src/integrationTest/java/org/acme/app"
        tests.mkdir(parents=True)
        (tests / "TableIT.java").write_text((suites / "app/src/test/java/org/acme/app/TableTest.java").read_text()
                                            .replace("class TableTest", "class TableIT"))
        (suites / "app/build.gradle").write_text(JVM_TEST_SUITE)
        it_cc = ("clean", ":app:integrationTest", "jpAggregateReport", "--configuration-cache", "--warning-mode",
                 "fail")
        row_fib = re.compile(r"^\[test\] org\.acme\.app\.TableIT#[^;]*;" + re.escape(
            "org.acme.app.Table.row(int):java.lang.String;org.acme.core.Fib.fib(int):long "))
        ok = self.gradle_run("suites-1", suites, *it_cc) \
            and found("^Configuration cache entry stored", self.log("suites-1")) \
            and self.gradle_run("suites-2", suites, *it_cc) \
            and found("^Configuration cache entry reused", self.log("suites-2"))
        profiles = glob(suites, "app/build/jp/profiles/integrationTest/run-*/*.jpprof")
        fib_calls = self.fib_calls(profiles) if profiles else 0
        self.outcome(ok and fib_calls == 59 and any(map(row_fib.match, self.folded_calls(profiles)))
                     and "org.acme.app.TableIT" in text(suites / "build/reports/jp/aggregate/report.txt"),
                     "test suites: a JVM test suite with jp.enabled runs its project's jar and core's instrumented "
                     "(Fib.fib 59 times under TableIT), under the configuration cache stored and reused; the "
                     "aggregate report holds it",
                     f"test suites: integrationTest suite with jp.enabled (Fib.fib calls: {fib_calls})",
                     shown(self.log("suites-1"), 30) + shown(self.log("suites-2"), 15))

    def run(self):
        try:
            if self.suite == "gradle":
                self.set_up()
            self.install()
            self.api()
            self.demo()
            self.lines()
            self.jfr()
            self.metrics()
            self.at_once()
            self.incremental()
            if self.suite == "gradle":
                self.daemon()
            self.multi_module()
            self.test_tasks()
            self.testng()
            self.bad_input()
            self.gate()
            self.marker()
            if self.suite == "gradle8":
                self.modern()
        finally:
            self.stop_daemon()
        self.checks.summary(self.program)
        return self.checks.status()


def suite(name):
    """Runs the suite NAME (gradle or gradle8) in a scratch directory; returns its exit status."""
    return build.in_scratch(f"{name}.py", "jp-gradle.", lambda work: GradleSuite(name, work).run())
