"""Oracle suite: the JVMTI counting oracle (integration-tests/oracle/) counts what the papers and
the test programs say, the same on every run; then JP's profiles of the same programs equal it.

(a) Self-check: the agent is built and integration-tests/programs/demo compiled (javac
    --release 17). Every program runs twice under the oracle: both runs must write the same folded
    files (calls and bytecodes) and the same stdout, the oracle must not warn, and every
    `// expect: CONTEXT calls=N bytecodes=M` line of the program's source must hold; the
    allocations per context and type (OUT.allocations.folded) must be the same in both runs too.
    The paper examples must give the papers' numbers: JP's Fig. 4 (f = 1 call of 106 bytecodes, f.h = 10,
    f.g = 10, f.g.h = 55) and ProfBuilder's Fig. 5 (611 calls in all, main.A.B.D = 200,
    main.A.C.D = 100).
(b) JP against the oracle: jp and the runtime jar are built too, and the programs of java25/ are
    compiled with --release 25 and run under Temurin 25 when there is one. The classes are
    instrumented by `jp instrument` with --bba precise and with --bba default (no method may be
    kept unrewritten) and each program runs uninstrumented under the oracle and instrumented with
    the runtime's default agent. All three runs must print the same and exit alike. With precise,
    JP's profile (`jp report --format folded`) must equal the oracle's context for context, in
    calls and in bytecodes, and give the papers' numbers; with default, the calls must be equal
    and the bytecodes never lower than the oracle's, and equal for programs that neither throw nor
    catch. Contexts whose value is 0 are left out on both sides (the oracle lists them, jp report
    does not).
(c) Per-line counts: the classes are instrumented with --lines too, with each analysis, and those
    runs are held to everything of (b); besides, the profile's per-line counts (its `line`
    records) must equal the oracle's (OUT.lines: each counted bci mapped to its line), line for
    line, with precise; with default, they must equal them for programs that neither throw nor
    catch, and never be lower otherwise.

(d) Recording windows: integration-tests/programs/window calls JP.start() and JP.stop(); it runs
    under the oracle with start=paused and start=recording and instrumented (precise) with the same
    jp.start, the runtime jar on both class paths: JP's profile must equal the oracle's, which
    counts exactly the activations begun while recording.
(e) Call sites: integration-tests/programs/sites calls methods from several sites, from the JDK
    (a comparator) and from a static initializer that an invoke runs; it, and the programs of (b)
    when they are wanted, run under the oracle with sites=on and instrumented with --bba precise
    --call-sites: JP's profile, each context split by the call site it was called from
    (` @ line N`), must equal the oracle's.

(f) Allocations: integration-tests/programs/allocations allocates with every allocation instruction
    (arrays of each primitive kind, object and multi-dimensional arrays), in constructors before
    super(...), static initializers, lambdas, exception paths and threads; it, and the programs of
    (b) when they are wanted, run under the oracle and instrumented with --bba precise --metrics
    allocations: calls and bytecodes must equal the oracle's as in (b), and so must the allocations
    per context and type (the profile's `allocations:<type>` metrics against the oracle's
    OUT.allocations.folded) and per context (`jp report --metric allocations`). Then its Grow,
    instrumented the same way, runs with 3 and with 5 rows, and `jp diff --metric allocations` (and
    `allocations:int[]`) of the two profiles must give the exact difference: 2 more int[], all in
    Grow.row, none elsewhere.
(g) Probes: integration-tests/programs/probes takes locks in several contexts, throws and rethrows,
    reads and writes arrays, and calls probes.Sink's record methods; it is instrumented with --bba
    precise and the probes of its jp.toml (--config), which count monitorenter, athrow, array loads
    and stores and the calls of probes.Sink.record*, and call probes.Handler.onRecord before each of
    those calls. Calls and bytecodes must equal the oracle's as in (b) (the handler's own work counts
    nowhere), each instruction probe's metric per context (`jp report --metric NAME`) must equal the
    oracle's count of that kind of instruction (OUT.opcodes.folded), and the call probe's, and the
    handler's `handler-ok` (it checks the receiver and arguments it got), must equal the oracle's
    calls of the matched methods summed per calling context; the totals must be the hand counts in
    the program, and no handler may count `handler-bad` or fail (`probe-errors`).

One PASS/FAIL/SKIP line per check. Work files go to ${ORACLE_WORK:-target/oracle}/selfcheck and
/compare under the repository, and stay there. Arguments, if any, are the programs to run
(`python3 integration-tests/suites/oracle.py Fig4 Recursion`). JAVA_HOME names the JDK 17 (javac,
java and the JVMTI headers), JAVA another java launcher, TEMURIN25_HOME a Temurin 25 (`none` for
none). Exits 1 if any check failed.
"""
import json
import os
import pathlib
import re
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from jptest import build, commands, files, folded, jdks, oracle  # noqa: E402
from jptest.checks import Checks, indented  # noqa: E402

PROGRAM = "oracle.py"
PROGRAMS = oracle.PROGRAMS
# The instrumented variants: a name (also a directory), its analysis, and whether lines are counted.
VARIANTS = (("precise", "precise", False), ("default", "default", False),
            ("precise-lines", "precise", True), ("default-lines", "default", True))
# A program that throws or catches: the default analysis may count more bytecodes than ran there.
_THROWS_OR_CATCHES = re.compile(r"\b(throw|catch)\b")


def work_root():
    return pathlib.Path(os.environ.get("ORACLE_WORK") or build.ROOT / "target" / "oracle")


def diff(first, second, limit):
    """The first LIMIT lines of diff(1) between two files, indented."""
    return indented(commands.output(["diff", str(first), str(second)])[0], limit)


def line_count(path):
    return len(folded.read(path))


class OracleSuite:
    def __init__(self, programs):
        self.checks = Checks()
        # Window, Sites, Allocations and Probes, the programs of (d) to (g), are named like the others
        # but are no demo programs.
        self.programs = [program for program in programs
                         if program not in ("Window", "Sites", "Allocations", "Probes")]
        self.demo_wanted = not programs or bool(self.programs)
        self.window_wanted = not programs or "Window" in programs
        self.sites_wanted = not programs or "Sites" in programs
        self.allocations_wanted = not programs or "Allocations" in programs
        self.probes_wanted = not programs or "Probes" in programs
        java, self.javac = jdks.default_java_and_javac()
        self.java = os.environ.get("JAVA") or java
        self.lib = self.jp = self.runtime = None

    def build_agent(self):
        """The agent, built once; None after a FAIL line when it does not compile."""
        if self.lib is None:
            try:
                self.lib = oracle.build_agent()
            except oracle.OracleError as error:
                self.checks.fail("build: the agent did not compile", indented(str(error)))
        return self.lib

    def compile(self, javac, release, out, sources, log, classpath=None):
        """javac --release RELEASE on SOURCES into OUT; its messages shown on failure."""
        args = [str(javac), "--release", str(release), "-encoding", "UTF-8", "-d", str(out),
                *(["-cp", str(classpath)] if classpath else []), *map(str, sources)]
        if commands.run_split(args, os.devnull, log) == 0:
            return True
        print(commands.read_text(log), end="", flush=True)
        return False

    def run_oracle(self, java, main, classes, out):
        """MAIN under the oracle: OUT.{calls,bytecodes}.folded, OUT.stdout, OUT.stderr; its status."""
        return oracle.run(self.lib, java, main, classes, out, f"{out}.stdout", f"{out}.stderr")

    def paper(self, program, out, label):
        """For Fig4 and Fig5, the papers' numbers on OUT.{calls,bytecodes}.folded."""
        found = oracle.paper(program, folded.read(f"{out}.calls.folded"), folded.read(f"{out}.bytecodes.folded"))
        if found is None:
            return
        name, numbers, problems = found
        if problems:
            self.checks.fail(f"{label}: {name}", indented("\n".join(problems)))
        else:
            self.checks.pass_(f"{label}: {name}: {numbers}")

    # -- (a) the oracle itself ------------------------------------------------------------------------

    def selfcheck(self):
        work = work_root() / "selfcheck"
        if not self.build_agent():
            return
        shutil.rmtree(work, ignore_errors=True)
        for name in ("classes", "run1", "run2"):
            (work / name).mkdir(parents=True)
        if not self.compile(self.javac, 17, work / "classes", sorted((PROGRAMS / "demo").glob("*.java")),
                            work / "javac.log"):
            self.checks.fail("compile: javac failed on integration-tests/programs")
            return
        self.checks.pass_("build: agent and programs")
        for program in self.programs or oracle.demo_programs():
            self.selfcheck_program(work, program)

    def selfcheck_program(self, work, program):
        watch = commands.Stopwatch()
        statuses = [self.run_oracle(self.java, f"demo.{program}", work / "classes", work / run / program)
                    for run in ("run1", "run2")]
        milliseconds = watch.milliseconds()
        first, second = work / "run1" / program, work / "run2" / program
        problems, details = [], ""
        for status in statuses:
            if status == oracle.WARNED:
                problems.append(f"the oracle reported warnings (see {first}.stderr)")
            elif status != 0:
                problems.append(f"exit status {status} (see {first}.stderr)")
        for kind in ("calls.folded", "bytecodes.folded", "allocations.folded", "stdout"):
            ours, theirs = pathlib.Path(f"{first}.{kind}"), pathlib.Path(f"{second}.{kind}")
            # A program may allocate nothing: only the contexts' files may not be empty.
            if kind in ("calls.folded", "bytecodes.folded") and not (ours.is_file() and ours.stat().st_size > 0):
                problems.append(f"no {kind} written")
            elif not files.same_bytes(ours, theirs):
                problems.append(f"{kind} differs between two runs")
                details += diff(ours, theirs, 10)
        source = commands.read_text(PROGRAMS / "demo" / f"{program}.java")
        for context, metric, value in oracle.expectations(source):
            problem = oracle.value_problem(program, folded.read(f"{first}.{metric}.folded"), context, value)
            if problem:
                details += indented(problem)
                problems.append(f"expectation not met: {metric} of {context}")
        if problems:
            self.checks.fail(f"{program}: {';'.join(problems)}", details)
        else:
            self.checks.pass_(f"{program}: deterministic, {line_count(f'{first}.calls.folded')} contexts "
                              f"(two runs, {milliseconds} ms)")
        self.paper(program, first, "paper")

    # -- (b) JP against the oracle ----------------------------------------------------------------

    def compare(self):
        work = work_root() / "compare"
        shutil.rmtree(work, ignore_errors=True)
        for name in ("classes", "oracle", *(variant for variant, _, _ in VARIANTS)):
            (work / name).mkdir(parents=True)
        if not self.build_agent():
            return
        try:
            self.jp = build.build_jp()
            self.runtime = build.build_runtime(work)
        except build.SuiteError as error:
            self.checks.fail(f"build: {error}")
            return
        if not self.compile(self.javac, 17, work / "classes", sorted((PROGRAMS / "demo").glob("*.java")),
                            work / "javac.log"):
            self.checks.fail("compile: javac failed on integration-tests/programs")
            return
        # Programs in the Java 25 language (package demo25) run under Temurin 25 when it is installed.
        java25 = None
        temurin = jdks.find_temurin25()
        if not temurin:
            self.checks.skip("java25 programs: no Temurin 25 (set TEMURIN25_HOME)")
        elif self.compile(temurin / "bin" / "javac", 25, work / "classes",
                          sorted((PROGRAMS / "java25").glob("*.java")), work / "javac25.log"):
            java25 = temurin / "bin" / "java"
        else:
            self.checks.fail("compile: javac --release 25 failed on integration-tests/programs/java25")
        for variant, bba, lines in VARIANTS:
            log = work / f"instrument-{variant}.log"
            flags = ["--bba", bba] + (["--lines"] if lines else [])
            if commands.run_logged([str(self.jp), "instrument", str(work / "classes"), "--out",
                                    str(work / f"instrumented-{variant}"), *flags], log) != 0:
                print(commands.read_text(log), end="", flush=True)
                self.checks.fail(f"instrument: jp instrument {' '.join(flags)} failed")
                return
            warnings = [line for line in commands.read_text(log).splitlines() if line.startswith("warning")]
            if warnings:
                self.checks.fail(f"instrument: jp instrument {' '.join(flags)} kept methods unrewritten",
                                 indented("\n".join(warnings), 5))
        self.checks.pass_("build: jp, runtime, agent and programs; instrumented with both analyses, "
                          "with and without lines")

        programs = self.programs
        if not programs:
            programs = oracle.demo_programs()
            if java25:
                programs += [path.stem for path in sorted((PROGRAMS / "java25").glob("*.java"))]
        for program in programs:
            self.compare_program(work, program, java25)

    def compare_program(self, work, program, java25):
        package, source, java = "demo", PROGRAMS / "demo" / f"{program}.java", self.java
        if not source.is_file() and (PROGRAMS / "java25" / f"{program}.java").is_file():
            package, source, java = "demo25", PROGRAMS / "java25" / f"{program}.java", java25 or self.java
        expected = work / "oracle" / program
        status = self.run_oracle(java, f"{package}.{program}", work / "classes", expected)
        with open(f"{expected}.stdout", "a") as file:
            file.write(f"exit {status}\n")
        problems, details = [], ""
        if status == oracle.WARNED:
            problems.append(f"the oracle reported warnings (see {expected}.stderr)")
        throws_or_catches = bool(_THROWS_OR_CATCHES.search(commands.read_text(source)))
        for variant, bba, lines in VARIANTS:
            out = work / variant / program
            status = commands.run_split([str(java), "-cp", f"{work / f'instrumented-{variant}'}:{self.runtime}",
                                         f"-Djp.output={out}.jpprof", f"{package}.{program}"],
                                        f"{out}.stdout", f"{out}.stderr")
            with open(f"{out}.stdout", "a") as file:
                file.write(f"exit {status}\n")
            if not files.same_bytes(f"{expected}.stdout", f"{out}.stdout"):
                problems.append(f"{variant}: stdout or exit status differs from the uninstrumented run")
                details += diff(f"{expected}.stdout", f"{out}.stdout", 6)
            reported, found, more = self.compare_metrics(expected, out, bba, throws_or_catches)
            problems += [f"{variant}: {problem}" for problem in found]
            details += more
            if reported and variant == "precise":
                self.paper(program, out, "paper (JP, precise)")
            if lines:
                problem, more = self.compare_lines(expected, out, bba, throws_or_catches)
                if problem:
                    problems.append(f"{variant}: {problem}")
                    details += more
        if problems:
            self.checks.fail(f"{program}: {';'.join(problems)}", details)
        else:
            contexts = line_count(work / "precise" / f"{program}.calls.sorted")
            lines = line_count(work / "precise-lines" / f"{program}.lines.sorted")
            self.checks.pass_(f"{program}: JP equals the oracle ({contexts} contexts, {lines} lines)")

    def report(self, out, metric):
        """`jp report` of OUT.jpprof's METRIC into OUT.METRIC.folded: None, or the first line of its
        error when it fails."""
        log = pathlib.Path(f"{out}.report.log")
        if commands.run_split([str(self.jp), "report", f"{out}.jpprof", "--format", "folded", "--metric", metric,
                               "--out", f"{out}.{metric}.folded"], os.devnull, log) == 0:
            return None
        return (commands.read_text(log).splitlines() or [""])[0]

    def compare_metrics(self, expected, out, bba, throws_or_catches):
        """JP's profile OUT.jpprof against the oracle's EXPECTED in every metric (compare_metric):
        whether jp report read it, the problems found and the details to show."""
        problems, details = [], ""
        for metric in oracle.METRICS:
            failure = self.report(out, metric)
            if failure is not None:
                return False, [*problems, f"jp report failed: {failure}"], details
            problem, more = self.compare_metric(expected, out, bba, metric, throws_or_catches)
            if problem:
                problems.append(problem)
                details += more
        return True, problems, details

    def compare_metric(self, expected, out, bba, metric, throws_or_catches):
        """JP's METRIC (OUT.METRIC.folded) against the oracle's (EXPECTED.METRIC.folded): a problem
        (or None) and the details to show."""
        jp_folded = pathlib.Path(f"{out}.{metric}.folded")
        # JP's signatures as the oracle's JVMS descriptors; contexts of 0 left out on both sides.
        jp_lines = [folded.jvm_names(line) for line in folded.read(jp_folded)]
        files.write_lines(jp_folded, jp_lines)
        jp_sorted, oracle_sorted = pathlib.Path(f"{out}.{metric}.sorted"), pathlib.Path(f"{expected}.{metric}.sorted")
        files.write_lines(jp_sorted, folded.nonzero(jp_lines))
        files.write_lines(oracle_sorted, folded.nonzero(folded.read(f"{expected}.{metric}.folded")))
        if bba == "default" and metric == "bytecodes" and throws_or_catches:
            lower = folded.lower_than(folded.read(jp_sorted), folded.read(oracle_sorted))
            if lower:
                return f"{metric} lower than the oracle's", indented("\n".join(lower), 5)
        elif not files.same_bytes(oracle_sorted, jp_sorted):
            return f"{metric} differ from the oracle's", diff(oracle_sorted, jp_sorted, 8)
        return None, ""

    def compare_lines(self, expected, out, bba, throws_or_catches):
        """JP's per-line counts (OUT.jpprof's `line` records) against the oracle's (EXPECTED.lines): a
        problem (or None) and the details to show."""
        jp_sorted, oracle_sorted = pathlib.Path(f"{out}.lines.sorted"), pathlib.Path(f"{expected}.lines.sorted")
        files.write_lines(jp_sorted, folded.nonzero(oracle.profile_lines(commands.read_text(f"{out}.jpprof"))))
        files.write_lines(oracle_sorted, folded.nonzero(folded.read(f"{expected}.lines")))
        if not folded.read(oracle_sorted):
            return "the oracle counted no lines", ""
        if bba == "default" and throws_or_catches:
            lower = folded.lower_than(folded.read(jp_sorted), folded.read(oracle_sorted))
            if lower:
                return "per-line bytecodes lower than the oracle's", indented("\n".join(lower), 5)
        elif not files.same_bytes(oracle_sorted, jp_sorted):
            return "per-line bytecodes differ from the oracle's", diff(oracle_sorted, jp_sorted, 8)
        return None, ""

    # -- (d) recording windows ----------------------------------------------------------------------

    def tools_built(self, work):
        """Whether the agent, jp and the runtime jar (into WORK) are built, once; a FAIL line when not."""
        if not self.build_agent():
            return False
        try:
            self.jp = self.jp or build.build_jp()
            self.runtime = self.runtime or build.build_runtime(work)
        except build.SuiteError as error:
            self.checks.fail(f"build: {error}")
            return False
        return True

    def windows(self):
        """integration-tests/programs/window, which calls JP.start() and JP.stop(), under the oracle
        (start=S) and instrumented with --bba precise (-Djp.start=S), for S paused and recording: the
        same output, and the same contexts in calls and in bytecodes."""
        work = work_root() / "window"
        shutil.rmtree(work, ignore_errors=True)
        (work / "classes").mkdir(parents=True)
        if not self.tools_built(work):
            return
        if not self.compile(self.javac, 17, work / "classes", sorted((PROGRAMS / "window").glob("*.java")),
                            work / "javac.log", self.runtime):
            self.checks.fail("window: javac failed on integration-tests/programs/window")
            return
        log = work / "instrument.log"
        if commands.run_logged([str(self.jp), "instrument", str(work / "classes"), "--out", str(work / "instrumented"),
                                "--bba", "precise"], log) != 0:
            self.checks.fail("window: jp instrument failed", indented(commands.read_text(log)))
            return
        for start in ("paused", "recording"):
            expected, out = work / f"oracle-{start}", work / f"jp-{start}"
            status = oracle.run(self.lib, self.java, "window.Window", f"{work / 'classes'}:{self.runtime}", expected,
                                f"{expected}.stdout", f"{expected}.stderr", options=f"start={start}")
            problems, details = [], ""
            if status != 0:
                problems.append(f"the oracle run exited with {status} (see {expected}.stderr)")
            status = commands.run_split([str(self.java), "-cp", f"{work / 'instrumented'}:{self.runtime}",
                                         f"-Djp.start={start}", f"-Djp.output={out}.jpprof", "window.Window"],
                                        f"{out}.stdout", f"{out}.stderr")
            if status != 0 or not files.same_bytes(f"{expected}.stdout", f"{out}.stdout"):
                problems.append("the instrumented run's output or exit status differs")
                details += diff(f"{expected}.stdout", f"{out}.stdout", 6)
            _, found, more = self.compare_metrics(expected, out, "precise", False)
            problems += found
            details += more
            if problems:
                self.checks.fail(f"window, jp.start={start}: {'; '.join(problems)}", details)
            else:
                contexts = line_count(f"{out}.calls.sorted")
                self.checks.pass_(f"window, jp.start={start}: JP equals the oracle in the window ({contexts} contexts)")

    # -- (e) call sites -------------------------------------------------------------------------------

    def call_sites(self):
        """integration-tests/programs/sites, and the programs of demo/ when they are wanted, under the
        oracle with sites=on and instrumented with --bba precise --call-sites: the same output, and
        the same contexts, split by call site, in calls and in bytecodes."""
        work = work_root() / "sites"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        if not self.tools_built(work):
            return
        programs = self.with_demo([("sites", "sites.Sites")])
        if not self.instrument_programs(work, programs, "sites", ["--call-sites"]):
            return
        for directory, main in programs:
            self.compare_sites(work / directory, main, at_least=10 if directory == "sites" else 0)

    def with_demo(self, programs):
        """PROGRAMS, (directory, main class) pairs, and the programs of demo/ when they are wanted."""
        if self.demo_wanted:
            programs += [("demo", f"demo.{program}") for program in self.programs or oracle.demo_programs()]
        return programs

    def instrument_programs(self, work, programs, check, flags, classpath=None):
        """Compiles each directory of PROGRAMS (against CLASSPATH) into WORK/<directory>/classes and
        instruments it with --bba precise and FLAGS into WORK/<directory>/instrumented; False, after
        a FAIL of CHECK, when either fails."""
        for directory in sorted({directory for directory, _ in programs}):
            classes = work / directory / "classes"
            classes.mkdir(parents=True)
            if not self.compile(self.javac, 17, classes, sorted((PROGRAMS / directory).glob("*.java")),
                                work / directory / "javac.log", classpath):
                self.checks.fail(f"{check}: javac failed on integration-tests/programs/{directory}")
                return False
            log = work / directory / "instrument.log"
            if commands.run_logged([str(self.jp), "instrument", str(classes), "--out",
                                    str(work / directory / "instrumented"), "--bba", "precise", *flags], log) != 0:
                self.checks.fail(f"{check}: jp instrument {' '.join(flags)} failed on {directory}",
                                 indented(commands.read_text(log)))
                return False
        return True

    def run_both(self, work, main, expected, out, options):
        """MAIN of WORK/classes under the oracle (with its OPTIONS) into EXPECTED, and of
        WORK/instrumented with the runtime into OUT: the problems found comparing their output, exit
        status, calls and bytecodes (precise), and their details."""
        problems, details = [], ""
        status = oracle.run(self.lib, self.java, main, str(work / "classes"), expected,
                            f"{expected}.stdout", f"{expected}.stderr", options=options)
        with open(f"{expected}.stdout", "a") as file:
            file.write(f"exit {status}\n")
        if status == oracle.WARNED:
            problems.append(f"the oracle reported warnings (see {expected}.stderr)")
        status = commands.run_split([str(self.java), "-cp", f"{work / 'instrumented'}:{self.runtime}",
                                     f"-Djp.output={out}.jpprof", main], f"{out}.stdout", f"{out}.stderr")
        with open(f"{out}.stdout", "a") as file:
            file.write(f"exit {status}\n")
        if not files.same_bytes(f"{expected}.stdout", f"{out}.stdout"):
            problems.append("the instrumented run's output or exit status differs")
            details += diff(f"{expected}.stdout", f"{out}.stdout", 6)
        _, found, more = self.compare_metrics(expected, out, "precise", False)
        return problems + found, details + more

    def compare_sites(self, work, main, at_least):
        """MAIN of WORK/classes under the oracle with sites=on against WORK/instrumented: PASS or FAIL,
        the profile naming AT_LEAST sites."""
        name = main.rpartition(".")[2]
        expected, out = work / f"oracle-{name}", work / f"jp-{name}"
        problems, details = self.run_both(work, main, expected, out, "sites=on")
        sited = [line for line in folded.read(f"{out}.calls.sorted") if " @ line " in line]
        if not problems and len(sited) < at_least:
            problems.append(f"only {len(sited)} contexts name a call site")
        if problems:
            self.checks.fail(f"sites, {name}: {'; '.join(problems)}", details)
        else:
            contexts = line_count(f"{out}.calls.sorted")
            self.checks.pass_(f"sites, {name}: JP equals the oracle split by call site ({contexts} contexts, "
                              f"{len(sited)} with a site)")

    # -- (f) allocations ------------------------------------------------------------------------------

    def allocations(self):
        """integration-tests/programs/allocations, and the programs of demo/ when they are wanted, under
        the oracle and instrumented with --bba precise --metrics allocations: the same output, the same
        calls and bytecodes, and the same allocations per context and type."""
        work = work_root() / "allocations"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        if not self.tools_built(work):
            return
        programs = self.with_demo([("allocations", "allocations.Allocations")])
        if not self.instrument_programs(work, programs, "allocations", ["--metrics", "allocations"]):
            return
        for directory, main in programs:
            self.compare_allocations(work / directory, main, full=directory == "allocations")
        self.diff_allocations(work / "allocations")

    def diff_allocations(self, work):
        """allocations.Grow of WORK/instrumented run with 3 and with 5 rows: PASS when `jp diff
        --metric allocations` and `--metric allocations:int[]` of the two profiles (JSON) say that
        Grow.row allocated exactly 2 more int[] and nothing else changed in allocations."""
        profiles = {}
        for rows in (3, 5):
            out = work / f"grow-{rows}"
            status = commands.run_split([str(self.java), "-cp", f"{work / 'instrumented'}:{self.runtime}",
                                         f"-Djp.output={out}.jpprof", "allocations.Grow", str(rows)],
                                        f"{out}.stdout", f"{out}.stderr")
            if status != 0:
                self.checks.fail(f"allocation diff: Grow {rows} exited {status}",
                                 indented(commands.read_text(f"{out}.stderr")))
                return
            profiles[rows] = f"{out}.jpprof"
        problems, details = [], ""
        row = "allocations.Grow.row(I)[I"
        for metric in ("allocations", "allocations:int[]"):
            output, status = commands.stdout_of([str(self.jp), "diff", profiles[3], "--against", profiles[5],
                                                 "--metric", metric, "--format", "json"])
            try:
                found = json.loads(output) if status == 0 else None
            except json.JSONDecodeError:
                found = None
            if found is None:
                problems.append(f"jp diff --metric {metric} failed (exit {status})")
                details += indented(output)
                continue
            deltas = {entry["method"]: entry["delta"][metric] for entry in found["methods"]}
            if found["totals"]["delta"][metric] != 2 or {name: d for name, d in deltas.items() if d} != {row: 2}:
                problems.append(f"--metric {metric}: total change {found['totals']['delta'][metric]}, "
                                f"methods {deltas}; expected 2, all in {row}")
            bases = [entry["base"][metric] for entry in found["methods"] if entry["method"] == row]
            if bases != [3]:
                problems.append(f"--metric {metric}: {row} had {bases} in the base; expected 3")
        if problems:
            self.checks.fail(f"allocation diff: {'; '.join(problems)}", details)
        else:
            self.checks.pass_("allocation diff: Grow 3 against Grow 5, jp diff --metric allocations and "
                              "allocations:int[]: +2 int[], all in Grow.row(int)")

    def compare_allocations(self, work, main, full):
        """MAIN of WORK/classes under the oracle against WORK/instrumented: PASS or FAIL; with FULL, the
        profile must hold every kind of allocation the program makes."""
        name = main.rpartition(".")[2]
        expected, out = work / f"oracle-{name}", work / f"jp-{name}"
        problems, details = self.run_both(work, main, expected, out, "")
        by_type, oracle_by_type = pathlib.Path(f"{out}.types.sorted"), pathlib.Path(f"{expected}.types.sorted")
        files.write_lines(by_type, oracle.profile_allocations(commands.read_text(f"{out}.jpprof")))
        files.write_lines(oracle_by_type, folded.read(f"{expected}.allocations.folded"))
        if not files.same_bytes(oracle_by_type, by_type):
            problems.append("allocations per type differ from the oracle's")
            details += diff(oracle_by_type, by_type, 8)
        # The total per context, as jp report shows it, against the oracle's types added up. A profile
        # without allocations has no such metric (the comparison above held it to none).
        failure = self.report(out, "allocations") if folded.read(oracle_by_type) else None
        if failure is not None:
            problems.append(f"jp report --metric allocations failed: {failure}")
        else:
            totals = pathlib.Path(f"{out}.allocations.sorted")
            files.write_lines(totals, folded.nonzero(
                [folded.jvm_names(line) for line in folded.read(f"{out}.allocations.folded")]))
            oracle_totals = pathlib.Path(f"{expected}.allocations.sorted")
            files.write_lines(oracle_totals, folded.summed(
                [line.rsplit(" ", 2)[0] + " " + line.rsplit(" ", 1)[1] for line in folded.read(oracle_by_type)]))
            if not files.same_bytes(oracle_totals, totals):
                problems.append("allocations per context differ from the oracle's")
                details += diff(oracle_totals, totals, 8)
        types = {line.rsplit(" ", 2)[1] for line in folded.read(oracle_by_type)}
        wanted = {f"{kind}[]" for kind in ("boolean", "byte", "char", "short", "int", "long", "float", "double")}
        wanted |= {"int[][]", "int[][][]", "java.lang.String[][]", "java.lang.Object[][]"}
        if full and not problems and not wanted <= types:
            problems.append(f"types never allocated: {', '.join(sorted(wanted - types))}")
        if problems:
            self.checks.fail(f"allocations, {name}: {'; '.join(problems)}", details)
        else:
            counted = sum(int(line.rsplit(" ", 1)[1]) for line in folded.read(oracle_by_type))
            contexts = len(folded.read(f"{expected}.allocations.sorted"))
            self.checks.pass_(f"allocations, {name}: JP equals the oracle ({contexts} contexts allocating, "
                              f"{len(types)} types, {counted} allocations)")

    # -- (g) probes -----------------------------------------------------------------------------------

    # The probes of integration-tests/programs/probes/jp.toml that count a kind of instruction: their
    # metric by the kind, as the oracle's OUT.opcodes.folded names it.
    OPCODE_METRICS = {"monitorenter": "locks", "athrow": "throws", "array-load": "array-loads",
                      "array-store": "array-stores"}
    # The contexts of the methods its call probe matches, `probes.Sink.record*`, in the oracle's names
    # (whose descriptors may hold `;`), after their caller's path.
    CALLED = re.compile(r";probes\.Sink\.record\w*\([^()]*\)V$")
    # The totals worked out by hand from Probes.java: 3 lockOnce, 2 lockNested of two locks, 2
    # constructors; check throws twice from main and twice from rethrow, which throws twice; arrays(4)
    # reads three arrays and writes three, 4 times, and main writes {4, 5}; 4 record calls, 1 recordStatic.
    HAND_COUNTS = {"locks": 9, "throws": 6, "array-loads": 12, "array-stores": 14, "sink-calls": 5,
                   "handler-ok": 5}

    def probes(self):
        """integration-tests/programs/probes under the oracle and instrumented with the probes of its
        jp.toml: the same output, calls and bytecodes, and each probe's metric per context."""
        work = work_root() / "probes"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        if not self.tools_built(work):
            return
        config = PROGRAMS / "probes" / "jp.toml"
        if not self.instrument_programs(work, [("probes", "probes.Probes")], "probes", ["--config", str(config)],
                                        classpath=self.runtime):
            return
        work = work / "probes"
        expected, out = work / "oracle-Probes", work / "jp-Probes"
        problems, details = self.run_both(work, "probes.Probes", expected, out, "")
        wanted = {metric: [] for metric in self.HAND_COUNTS}
        for line in folded.read(f"{expected}.opcodes.folded"):
            path, kind, count = line.rsplit(" ", 2)
            wanted[self.OPCODE_METRICS[kind]].append(f"{path} {count}")
        for line in folded.read(f"{expected}.calls.folded"):
            path, count = line.rsplit(" ", 1)
            called = self.CALLED.search(path)
            if called:
                caller = path[:called.start()]
                wanted["sink-calls"].append(f"{caller} {count}")
                wanted["handler-ok"].append(f"{caller} {count}")
        for metric, lines in wanted.items():
            failure = self.report(out, metric)
            if failure is not None:
                problems.append(f"jp report --metric {metric} failed: {failure}")
                continue
            jp_sorted, oracle_sorted = pathlib.Path(f"{out}.{metric}.sorted"), pathlib.Path(f"{expected}.{metric}.sorted")
            files.write_lines(jp_sorted, folded.nonzero(
                [folded.jvm_names(line) for line in folded.read(f"{out}.{metric}.folded")]))
            files.write_lines(oracle_sorted, folded.nonzero(folded.summed(lines)))
            if not files.same_bytes(oracle_sorted, jp_sorted):
                problems.append(f"{metric} per context differs from the oracle's")
                details += diff(oracle_sorted, jp_sorted, 8)
            total = folded.total(folded.read(jp_sorted))
            if total != self.HAND_COUNTS[metric]:
                problems.append(f"{metric}: {total} in all, {self.HAND_COUNTS[metric]} by hand")
        profile = commands.read_text(f"{out}.jpprof")
        for unwanted in ("handler-bad", "probe-errors"):
            if re.search(rf"^metric [0-9]+ {unwanted} ", profile, re.MULTILINE):
                problems.append(f"the profile counts {unwanted}")
        if problems:
            self.checks.fail(f"probes: {'; '.join(problems)}", details)
        else:
            contexts = len(folded.read(f"{out}.locks.sorted"))
            self.checks.pass_(f"probes: JP equals the oracle and the hand counts ({contexts} contexts taking locks, "
                              f"{len(self.HAND_COUNTS)} probe metrics, the handler's arguments checked)")

    def run(self):
        if self.demo_wanted:
            self.selfcheck()
            self.compare()
        if self.window_wanted:
            self.windows()
        if self.sites_wanted:
            self.call_sites()
        if self.allocations_wanted:
            self.allocations()
        if self.probes_wanted:
            self.probes()
        self.checks.summary(PROGRAM)
        return self.checks.status()


if __name__ == "__main__":
    build.main(PROGRAM, lambda: OracleSuite(sys.argv[1:]).run())
