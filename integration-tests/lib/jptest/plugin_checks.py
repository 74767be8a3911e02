"""The checks shared by the suites that drive JP's build plugins in real builds (the gradle suites of
jptest.gradle_suite and suites/maven-plugin.py): what a test run's profiles, per-test contexts, IDE
files and regression gate must show, whichever build tool made them.

    plugin = PluginChecks(NamedChecks("maven-plugin"), jp, work, version)
    plugin.demo_profiles("target/jp/profiles/run-*", *profiles)   # PASS or FAIL lines
"""
import os
import pathlib
import re
import shutil

from jptest import build, commands, surefire
from jptest.checks import NamedChecks, indented

IDE_RUN_FILE = build.ROOT / "integration-tests" / "lib" / "IdeRunFile.java"
TESTNG_POM = build.ROOT / "integration-tests" / "maven" / "testng-demo" / "pom.xml"
LEADERBOARD = "org.example.leaderboard"
RANK = f"{LEADERBOARD}.Leaderboard.rank(java.util.List):java.util.List"
BEFORE = f"{LEADERBOARD}.Leaderboard.before({LEADERBOARD}.Player,{LEADERBOARD}.Player):boolean"
_VALUE_SUFFIX = re.compile(r" [0-9]+$")


def shown(path, lines=25):
    """The last LINES lines of a log, each behind `    | `, to follow a FAIL line."""
    return indented(commands.tail(path, lines), prefix="    | ")


def squeezed(text):
    """TEXT with each run of spaces made one, as `tr -s ' '` does."""
    return re.sub(" +", " ", text)


def relative(path, directory):
    """PATH without DIRECTORY's prefix, when it is below DIRECTORY."""
    prefix = f"{directory}/"
    return str(path)[len(prefix):] if str(path).startswith(prefix) else str(path)


def profiles_in(directory):
    """The `*.jpprof` files of DIRECTORY, in name order."""
    return sorted(pathlib.Path(directory).glob("*.jpprof"))


def last_field(line):
    return line.split()[-1] if line.split() else ""


def number(text):
    """TEXT as an integer, as awk reads a field (0 when it is no number)."""
    match = re.match(r"\s*-?[0-9]+", text)
    return int(match.group()) if match else 0


def complete_page(path):
    """Whether PATH is a whole HTML page, from its doctype to its closing tag."""
    try:
        data = pathlib.Path(path).read_bytes()
    except OSError:
        return False
    return bool(data) and data[:15] == b"<!DOCTYPE html>" and data[-8:].rstrip(b"\n").startswith(b"</html>")


def no_crash(*directories):
    """Whether no JVM crashed under DIRECTORIES: no HotSpot hs_err_pid* file 4 levels deep or less."""
    for directory in directories:
        top = pathlib.Path(directory)
        for where, subdirectories, names in os.walk(top):
            if any(name.startswith("hs_err_pid") for name in names + subdirectories):
                return False
            if len(pathlib.Path(where).relative_to(top).parts) >= 3:
                subdirectories.clear()
    return True


def testng_version(pom_text):
    """The TestNG version a POM's text names (the <version> on or after <artifactId>testng)."""
    lines = pom_text.splitlines()
    for i, line in enumerate(lines):
        if "<artifactId>testng</artifactId>" in line:
            for candidate in lines[i:i + 2]:
                match = re.search(r"<version>(.*)</version>", candidate)
                if match:
                    return match.group(1)
    return ""


def test_totals(folded):
    """One line per test context (`[test] <id>`) of folded lines, its id and the value of its whole
    subtree (`[test] id = 42`), sorted bytewise."""
    totals = {}
    for line in folded:
        if line.startswith("[test] "):
            context = _VALUE_SUFFIX.sub("", line)
            test = context.split(";")[0]
            totals[test] = totals.get(test, 0) + number(last_field(line))
    return sorted((f"{test} = {total}" for test, total in totals.items()), key=lambda line: line.encode())


def outside_tests(folded):
    """The first three lines of folded lines that are neither in a test nor a static initializer's."""
    return [line for line in folded if not line.startswith("[test] ")
            and not re.match(r"^[^;]*<clinit>", line)][:3]


def tests_without_context(test_ids, folded):
    """The tests of TEST_IDS (`class#method`, as jptest.surefire gives them) with no top-level
    context run once in folded lines. Surefire names a test `method` (JUnit 4) or `method(Types)`
    (JUnit 5), and an invocation `method(Types)[n]`, whose context is
    `[test] class#method(Types) > [n] <the rest of its display name>`."""
    lines = set(folded)
    missing = []
    for test in test_ids:
        invocation = re.match(r"^(.*\))\[([0-9]+)\]$", test)
        if invocation:
            pattern = re.compile("^" + re.escape(f"[test] {invocation.group(1)} > [{invocation.group(2)}] ")
                                 + "[^;]* 1$")
            found = any(pattern.match(line) for line in folded)
        else:
            found = f"[test] {test if test.endswith(')') else test + '()'} 1" in lines
        if not found:
            missing.append(test)
    return missing


def hottest(folded):
    """The first line of folded lines with the highest value ("" when none is above 0)."""
    best, best_value = "", 0
    for line in folded:
        if number(last_field(line)) > best_value:
            best, best_value = line, number(last_field(line))
    return best


def calls_below(folded, path):
    """The sum of the values of the contexts that end with the frames PATH (`a;b`)."""
    return sum(number(last_field(line)) for line in folded if _VALUE_SUFFIX.sub("", line).endswith(path))


def first_value(folded, part):
    """The value of the first line of folded lines that holds PART, or None."""
    return next((last_field(line) for line in folded if part in line), None)


def ranks_rank_first(line):
    """Whether a row of `jp diff`'s methods (first_changed_method) is Leaderboard.rank, changed."""
    return line.startswith("changed") and f"{LEADERBOARD}.Leaderboard.rank(" in line[len("changed"):]


def matching(lines, text, limit):
    """The first LIMIT of LINES that hold TEXT, as one string."""
    return "".join(f"{line}\n" for line in [line for line in lines if text in line][:limit])


class PluginChecks:
    """The checks, printing to CHECKS (a NamedChecks), reading profiles with the `jp` at JP, with
    scratch files in WORK; VERSION is JP's version, which the runtime's jar names."""

    def __init__(self, checks, jp, work, version):
        self.checks = checks
        self.jp = str(jp)
        self.work = pathlib.Path(work)
        self.version = version

    # -- jp ---------------------------------------------------------------------------------------

    def folded(self, profiles, metric=None):
        """`jp report PROFILES --format folded [--metric METRIC]`'s lines (stderr passes through)."""
        args = [self.jp, "report", *map(str, profiles), "--format", "folded"]
        if metric:
            args += ["--metric", metric]
        return commands.stdout_of(args)[0].splitlines()

    def report_to(self, profiles, metric, out):
        """Writes `jp report PROFILES --format folded --metric METRIC` to OUT; whether it worked."""
        return commands.run_passing([self.jp, "report", *map(str, profiles), "--format", "folded",
                                     "--metric", metric, "--out", str(out)]) == 0

    def total_calls(self, profiles):
        """The calls of all contexts of PROFILES together."""
        return sum(number(last_field(line)) for line in self.folded(profiles, "calls"))

    def per_test_totals(self, profiles):
        """test_totals of PROFILES' bytecodes."""
        return test_totals(self.folded(profiles, "bytecodes"))

    def first_changed_method(self, base, new):
        """The first row of the methods that `jp diff` (text, full names) ranks, for the profiles of
        the directories BASE and NEW ("" when there is none)."""
        base_profiles = profiles_in(base) or [f"{base}/*.jpprof"]
        new_profiles = profiles_in(new) or [f"{new}/*.jpprof"]
        lines = commands.stdout_of([self.jp, "diff", *map(str, base_profiles), "--against",
                                    *map(str, new_profiles), "--names", "full"])[0].splitlines()
        for i, line in enumerate(lines):
            if line.startswith("== Methods"):
                return lines[i + 2] if i + 2 < len(lines) else ""
        return ""

    # -- the checks -------------------------------------------------------------------------------

    def gate_diff(self, task, log, named, page, base, run):
        """The failing check TASK (its output in LOG) names its diff report as NAMED; the report,
        PAGE, is a complete page naming Leaderboard.rank; and `jp diff` of the same two runs (the
        profiles the baseline kept, BASE, and the checked run, RUN) ranks Leaderboard.rank first."""
        first = self.first_changed_method(base, run)
        if f"where the growth is: {named}" in commands.read_text(log) and complete_page(page) \
                and re.search("Leaderboard.rank", commands.read_text(page)) and ranks_rank_first(first):
            self.checks.pass_(f"gate: the failing {task} names its diff report {named} "
                              f"({pathlib.Path(page).stat().st_size} bytes, a complete page), and jp diff of the "
                              f"same runs ranks Leaderboard.rank first: {squeezed(first)}")
        else:
            self.checks.fail(f"gate: the failing {task} names its diff report {named}, a complete page, and jp "
                             f"diff of the same runs ranks Leaderboard.rank first (first: {first or 'none'})",
                             shown(log))

    def per_test(self, where, folded_calls, reports):
        """Every test in the JUnit XML reports under REPORTS has its own top-level context in the
        folded calls FOLDED_CALLS, run once, and no method runs outside a test but static
        initializers."""
        folded = commands.read_text(folded_calls).splitlines()
        tests = surefire.test_ids(reports)
        missing = tests_without_context(tests, folded)
        outside = outside_tests(folded)
        if tests and not missing and not outside:
            self.checks.pass_(f"per-test: {where}: each of the {len(tests)} tests is a top-level context, run once; "
                              "nothing but static initializers outside")
        else:
            self.checks.fail(f"per-test: {where}: tests without a context: {chr(10).join(missing) or 'none'}; "
                             f"outside tests: {chr(10).join(outside) or 'nothing'}")

    def testng(self, where, first, second):
        """Two test runs (directories of profiles) of the TestNG project
        (integration-tests/maven/testng-demo's sources). In the first, each test method is a
        top-level context, begun once per invocation, with its @BeforeMethod (a new Words) inside;
        the data provider's three rows have contexts of their own below their method's, told apart
        by their values; @BeforeClass counts under the class's context; nothing but static
        initializers runs outside tests. Both runs give identical per-test totals."""
        folded_path = self.work / "testng-calls.folded"
        if not profiles_in(first) or not self.report_to(profiles_in(first), "calls", folded_path):
            self.checks.fail(f"per-test: {where}: no readable profile in {first}")
            return
        test = "[test] org.example.words.WordsTest"
        split = "org.example.words.Words.split(java.lang.String):java.util.List"
        folded = commands.read_text(folded_path).splitlines()
        missing = [line for line in [f"{test}#keepsEmptyWords() 1", f"{test}#splits(String, int) 3",
                                     f"{test};org.example.words.Words.loadSeparators():void 1",
                                     f"{test}#splits(String, int) > a, 1;{split} 1",
                                     f"{test}#splits(String, int) > a b, 2;{split} 1",
                                     f"{test}#splits(String, int) > a b c d e f g h, 8;{split} 1"]
                   if line not in folded]
        for method, count in (("#keepsEmptyWords()", "1"), ("#splits(String, int)", "3")):
            setup = re.compile("^" + re.escape(test + method) + r";org\.example\.words\.Words\.<init>[^;]* "
                               + count + "$")
            if not any(setup.match(line) for line in folded):
                missing.append(f"{test}{method};Words.<init> {count}")
        outside = outside_tests(folded)
        if not missing and not outside:
            self.checks.pass_(f"per-test: {where}: each test method a top-level context, run once per invocation, "
                              "its @BeforeMethod inside; 3 data-provider rows told apart below it; @BeforeClass "
                              "under the class")
        else:
            self.checks.fail(f"per-test: {where}: missing: {chr(10).join(missing) or 'none'}; "
                             f"outside tests: {chr(10).join(outside) or 'nothing'}", matching(folded, "WordsTest", 20))
        first_totals = self.per_test_totals(profiles_in(first))
        second_totals = self.per_test_totals(profiles_in(second)) if profiles_in(second) else None
        if len(first_totals) == 6 and first_totals == second_totals:
            self.checks.pass_(f"per-test: {where}: two runs give identical per-test totals (6 test contexts)")
        else:
            self.checks.fail(f"per-test: {where}: per-test totals of two runs",
                             indented("\n".join(first_totals) + "\n--\n" + "\n".join(second_totals or []), 20))

    def demo_profiles(self, where, *profiles):
        """The profiles of the demo's test run show its hot spot: the context with the most
        bytecodes of its own is Leaderboard.rank, and the insertion sort makes over half a million
        calls of Leaderboard.before under it. WHERE names the profiles' directory in messages."""
        bytecodes, calls = self.work / "bytecodes.folded", self.work / "calls.folded"
        if not profiles or not pathlib.Path(profiles[0]).is_file() \
                or not self.report_to(profiles, "bytecodes", bytecodes) or not self.report_to(profiles, "calls", calls):
            self.checks.fail(f"demo: no readable profile in {where}")
            return
        hot = hottest(commands.read_text(bytecodes).splitlines())
        compares = calls_below(commands.read_text(calls).splitlines(), f"{RANK};{BEFORE}")
        if f"{RANK} " in hot and compares > 500000:
            self.checks.pass_(f"demo: {len(profiles)} profile(s); hottest context Leaderboard.rank "
                              f"({last_field(hot)} bytecodes), {compares} calls of Leaderboard.before under it")
        else:
            self.checks.fail(f"demo: hottest context is not Leaderboard.rank: {hot} "
                             f"(Leaderboard.before calls: {compares})")

    def demo_tests(self, folded_path, reports, *profiles):
        """The demo's profiles (examples/*-demo, JUnit 4) give every test of the JUnit XML reports
        under REPORTS its own top-level context (per_test, with the calls written to FOLDED_PATH),
        StatsTest's instance set-up (a field of four players) counts inside each of its tests, and
        the class has its own context from JUnit 4.13's class notifications."""
        if self.report_to(profiles, "calls", folded_path):
            self.per_test("demo", folded_path, reports)
        else:
            self.checks.fail("per-test: demo: jp report")
        folded = commands.read_text(folded_path).splitlines()
        setup = re.compile(r"^\[test\] org\.example\.leaderboard\.StatsTest#[^;]*;"
                           r"org\.example\.leaderboard\.Player\.<init>[^;]* 4$")
        setups = sum(1 for line in folded if setup.match(line))
        if setups == 3 and f"[test] {LEADERBOARD}.StatsTest 1" in folded:
            self.checks.pass_("per-test: demo: StatsTest's set-up (4 players) counts inside each of its 3 tests; "
                              "the class has a context of its own")
        else:
            self.checks.fail(f"per-test: demo: set-up inside the tests ({setups} of 3)",
                             matching(folded, "StatsTest", 10))

    def params_contexts(self, folded_calls, folded_bytecodes):
        """The profile of integration-tests/maven/params-demo (JUnit 5, run by Surefire or by
        Gradle) has each invocation of its parameterized test as a context of its own, with
        @BeforeEach inside it, @BeforeAll under the class's context, and the longer line running
        more bytecodes."""
        calls = commands.read_text(folded_calls).splitlines()
        bytecodes = commands.read_text(folded_bytecodes).splitlines()
        test = "[test] org.example.params.FieldsTest#splits(String, int)"
        split = "org.example.params.Fields.split(java.lang.String):java.util.List"
        invocations = 0
        for invocation in ("[1] a, 1", "[2] a,b, 2", "[3] a,b,c,d,e,f,g,h, 8"):
            setup = re.compile("^" + re.escape(f"{test} > {invocation}")
                               + r";org\.example\.params\.Fields\.<init>[^;]* 1$")
            if f"{test} > {invocation};{split} 1" in calls and any(setup.match(line) for line in calls):
                invocations += 1
        short = first_value(bytecodes, f"{test} > [1] a, 1;{split} ")
        long = first_value(bytecodes, f"{test} > [3] a,b,c,d,e,f,g,h, 8;{split} ")
        before_all = "[test] org.example.params.FieldsTest;org.example.params.Fields.loadSeparators():void 1"
        if invocations == 3 and number(long or "0") > number(short or "0") \
                and any(before_all in line for line in calls):
            self.checks.pass_("per-test: params: 3 invocations of a parameterized test told apart, each with its "
                              f"@BeforeEach; @BeforeAll under the class ({short} and {long} bytecodes in split)")
        else:
            self.checks.fail(f"per-test: params: invocations told apart ({invocations} of 3; split: {short or '?'} "
                             f"and {long or '?'} bytecodes)", matching(calls, "FieldsTest", 20))

    def ide_settings(self, goal, directory, name, settings, profiles, classes, original):
        """What GOAL wrote (after its run, logged in WORK/ide.log) for the project in DIRECTORY,
        whose instrumented classes are in CLASSES and compiler's in ORIGINAL: SETTINGS names the
        class path and JVM options, and the class path runs the demo's application instrumented;
        and the run configurations in DIRECTORY/.run named NAME (`JP <project>`), IntelliJ IDEA's
        and Eclipse's, for the main class and for the tests, are well-formed and run the
        application the same way (ide_run_file)."""
        ide_log = self.work / "ide.log"
        text = commands.read_text(settings)
        if not re.search("^" + re.escape(f"vm.options=-Djp.output={profiles}/ide/ide-%p.jpprof"), text, re.MULTILINE) \
                or not re.search("^" + re.escape(f"main.classpath={classes}:") + ".*"
                                 + re.escape(f"jp-runtime-{self.version}.jar") + "$", text, re.MULTILINE):
            self.checks.fail(f"ide: {goal} prints the class path and JVM options", shown(ide_log))
            return
        classpath = re.search("^main.classpath=(.*)$", text, re.MULTILINE).group(1)
        profile = self.work / "ide.jpprof"
        commands.run_logged(["java", f"-Djp.output={profile}", "-cp", classpath, f"{LEADERBOARD}.Main"],
                            self.work / "ide-run.log", cwd=self.work)
        if profile.is_file() and profile.stat().st_size > 0 and \
                any("Leaderboard.rank" in line for line in self.folded([profile])):
            self.checks.pass_(f"ide: {goal}'s class path runs the application instrumented")
        else:
            self.checks.fail(f"ide: {goal}'s class path runs the application instrumented",
                             shown(self.work / "ide-run.log"))
        self.ide_run_file(goal, directory, f"{directory}/.run/{name} Main.run.xml", profiles, classes, original)
        self.ide_run_file(goal, directory, f"{directory}/.run/{name} Main.launch", profiles, classes)
        for file in (f"{directory}/.run/{name} tests.run.xml", f"{directory}/.run/{name} tests.launch"):
            listed = [line[len("cp "):] for line in commands.output(["java", str(IDE_RUN_FILE), file,
                                                                      str(directory)])[0].splitlines()
                      if line.startswith("cp ")]
            what = f"ide: {goal} wrote {relative(file, directory)}, well-formed, with the instrumented classes " \
                   "and the test listeners"
            if str(classes) in listed and any(entry.endswith(f"/jp-junit-{self.version}.jar") for entry in listed):
                self.checks.pass_(what)
            else:
                self.checks.fail(what, shown(ide_log) + (shown(file) if os.path.isfile(file) else ""))

    def ide_run_file(self, goal, directory, file, profiles, classes, original=None):
        """The run configuration FILE (IntelliJ IDEA's .run.xml, whose class path entries go in
        front of the module's, here ORIGINAL; or Eclipse's .launch, whose class path is whole)
        parses, puts CLASSES first and names JP's runtime, and `java` with exactly its JVM options
        and class path runs its main class instrumented, writing a profile into PROFILES/ide as the
        IDE would."""
        what = f"ide: {goal} wrote {relative(file, directory)}"
        items = self.work / "ide-file.txt"
        if commands.run_logged(["java", str(IDE_RUN_FILE), str(file), str(directory)], items) != 0:
            self.checks.fail(f"{what}, well-formed", shown(items) + shown(self.work / "ide.log"))
            return
        main, classpath, options = "", [], []
        for line in commands.read_text(items).splitlines():
            kind, _, value = line.strip().partition(" ")
            value = value.strip()
            if kind == "main":
                main = value
            elif kind == "cp":
                classpath.append(value)
            elif kind == "vm":
                options.append(value)
        if original:
            classpath.append(str(original))
        if not classpath or classpath[0] != str(classes) or \
                not any(entry.endswith(f"/jp-runtime-{self.version}.jar") for entry in classpath):
            self.checks.fail(f"{what}, with the instrumented classes first and the runtime", shown(items))
            return
        shutil.rmtree(pathlib.Path(profiles) / "ide", ignore_errors=True)
        run_log = self.work / "ide-run.log"
        commands.run_logged(["java", *options, "-cp", ":".join(classpath), main], run_log, cwd=directory)
        runs = sorted((pathlib.Path(profiles) / "ide").glob("ide-*.jpprof"))
        if runs and runs[0].stat().st_size > 0 and any("Leaderboard.rank" in line for line in self.folded(runs)):
            self.checks.pass_(f"{what}; java with its class path and JVM options runs {main} instrumented and "
                              f"writes {relative(runs[0], directory)}")
        else:
            self.checks.fail(f"{what}; java with its class path and JVM options runs {main} instrumented",
                             shown(items) + shown(run_log))
