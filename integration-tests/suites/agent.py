"""Agent suite: JP's load-time agent (agent/, `java -javaagent:jp-agent.jar=OPTIONS`) instruments
classes as they load and gives the profile that `jp instrument` of the same classes gives.

(a) Build: jp, the runtime jar and the agent jar (mvn -pl agent -am package); the programs of
    integration-tests/programs/demo and the main classes of examples/maven-demo compiled.
(b) Same profile: each program runs instrumented by `jp instrument` with the runtime jar, and plain
    under the agent with the same settings, for bba precise, bba default, precise with per-line
    counts, and precise with allocation counts (the agent takes them from a jp.toml). Both runs print
    the same and exit alike, the agent prints no `jp:` line, and `jp report --format folded` of the
    two profiles is the same in calls and in bytecodes, context for context; with lines, the
    profiles' per-line records are the same too, and the allocations per context and type always.
(c) Cache: every program runs again under the agent with precise, its classes now from the agent's
    cache, and gives the same profile again.
(d) Left as it was: the classes already instrumented, run under the agent, are each left as they
    are with one `jp:` line naming the class, and the profile is that of the instrumented run.
(e) Options: an unknown option gives one `jp:` line, and the program runs unprofiled; `include`
    narrows what is instrumented.
(f) Surefire: examples/maven-demo's tests run by Maven Surefire with the agent in its argLine pass,
    and their JVM writes a profile of the demo's classes.
(g) Native methods: integration-tests/programs/natives (a class whose natives, in a JNI library
    that gcc builds against the JDK's headers, call back into Java) runs plain, under the counting
    oracle with natives=on, and under the agent with bba=precise, which wraps natives: all three
    print the same, and the agent's profile equals the oracle's, calls and bytecodes, context for
    context (each native a context without bytecodes, its callbacks under it).

One PASS/FAIL/SKIP line per check. Work files go to ${AGENT_WORK:-target/agent-suite} under the
repository, and stay there. Arguments, if any, are the programs of (b) and (c)
(`python3 integration-tests/suites/agent.py Fig4 Recursion`). JAVA_HOME names the JDK 17. Exits 1
if any check failed.
"""
import os
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from jptest import build, commands, files, folded, jdks, oracle, surefire  # noqa: E402
from jptest.checks import Checks, indented  # noqa: E402

PROGRAM = "agent.py"
DEMO = build.ROOT / "examples" / "maven-demo"
NATIVES = oracle.PROGRAMS / "natives"
# The settings compared: a name (also a directory), the `jp instrument` flags, the agent's options
# ({config} is a jp.toml that asks for allocation counts, which the agent takes from a file alone).
VARIANTS = (("precise", ["--bba", "precise"], "bba=precise"),
            ("default", ["--bba", "default"], "bba=default"),
            ("precise-lines", ["--bba", "precise", "--lines"], "bba=precise,lines=true"),
            ("precise-allocations", ["--bba", "precise", "--metrics", "allocations"], "bba=precise,config={config}"))
METRICS = ("calls", "bytecodes")


def work_root():
    return pathlib.Path(os.environ.get("AGENT_WORK") or build.ROOT / "target" / "agent-suite")


def jp_lines(path):
    """The lines of a file that JP's agent or runtime wrote as its own (`jp: ...`)."""
    return [line for line in commands.read_text(path).splitlines() if line.startswith("jp:")]


class AgentSuite:
    def __init__(self, programs):
        self.checks = Checks()
        self.programs = programs
        self.java, self.javac = jdks.default_java_and_javac()
        self.work = work_root()
        self.jp = self.runtime = self.agent = None

    # -- (a) ----------------------------------------------------------------------------------------

    def build(self):
        shutil.rmtree(self.work, ignore_errors=True)
        self.work.mkdir(parents=True)
        log = self.work / "mvn.log"
        try:
            self.jp = build.build_jp()
            if commands.run_logged(["mvn", "-q", "-B", "-f", str(build.ROOT / "pom.xml"), "-pl", "agent", "-am",
                                    "package", "-DskipTests"], log) != 0:
                print(commands.tail(log, 30), flush=True)
                raise build.SuiteError("the agent jar did not build")
        except build.SuiteError as error:
            self.checks.fail(f"build: {error}")
            return False
        version = build.root_version()
        self.runtime = build.ROOT / "java-runtime" / "target" / f"jp-runtime-{version}.jar"
        self.agent = build.ROOT / "agent" / "target" / f"jp-agent-{version}.jar"
        for sources, out in ((sorted((oracle.PROGRAMS / "demo").glob("*.java")), "classes"),
                             (sorted((DEMO / "src" / "main" / "java").rglob("*.java")), "demo-classes")):
            args = [str(self.javac), "--release", "17", "-encoding", "UTF-8", "-d", str(self.work / out),
                    *map(str, sources)]
            if commands.run_split(args, os.devnull, self.work / f"javac-{out}.log") != 0:
                self.checks.fail(f"build: javac failed (see {self.work / f'javac-{out}.log'})")
                return False
        for variant, flags, _ in VARIANTS:
            for classes in ("classes", "demo-classes"):
                log = self.work / f"instrument-{classes}-{variant}.log"
                if commands.run_logged([str(self.jp), "instrument", str(self.work / classes), "--out",
                                        str(self.work / variant / f"instrumented-{classes}"), *flags], log) != 0:
                    print(commands.read_text(log), end="", flush=True)
                    self.checks.fail(f"build: jp instrument {' '.join(flags)} failed")
                    return False
        self.checks.pass_(f"build: jp, the runtime, the agent ({self.agent.stat().st_size // 1024} KiB) and the "
                          "programs; instrumented with every variant")
        return True

    # -- running ------------------------------------------------------------------------------------

    def run(self, out, classpath, main, jvm_options=(), args=()):
        """MAIN on CLASSPATH with JVM_OPTIONS, the profile to OUT.jpprof, OUT.stdout (with the exit
        status) and OUT.stderr; its status."""
        status = commands.run_split([str(self.java), f"-Djp.engine.cacheDir={self.work / 'engine'}",
                                     f"-Djp.output={out}.jpprof", *jvm_options, "-cp", str(classpath), main,
                                     *args], f"{out}.stdout", f"{out}.stderr")
        with open(f"{out}.stdout", "a") as file:
            file.write(f"exit {status}\n")
        return status

    def agent_option(self, options):
        return f"-javaagent:{self.agent}={options.format(config=self.allocations_config())}"

    def allocations_config(self):
        """The jp.toml of the variant with allocation counts, written when missing."""
        config = self.work / "allocations.toml"
        if not config.is_file():
            config.write_text('[instrument]\nmetrics = ["allocations"]\n')
        return config

    def folded(self, out, metric):
        """`jp report` of OUT.jpprof's METRIC, folded, as a list of lines; None when it fails."""
        target = pathlib.Path(f"{out}.{metric}.folded")
        if commands.run_split([str(self.jp), "report", f"{out}.jpprof", "--format", "folded", "--metric", metric,
                               "--out", str(target)], os.devnull, f"{out}.report.log") != 0:
            return None
        return sorted(commands.read_text(target).splitlines())

    def same_profile(self, expected, actual, lines=False):
        """The problems that tell ACTUAL's profile from EXPECTED's, with the details of the first."""
        problems, details = [], ""
        for metric in METRICS:
            ours, theirs = self.folded(expected, metric), self.folded(actual, metric)
            if ours is None or theirs is None:
                problems.append(f"jp report failed on the {metric}")
            elif ours != theirs:
                problems.append(f"the {metric} differ")
                if not details:
                    details = diff(ours, theirs)
            elif not ours:
                problems.append("no contexts")
        if lines and not problems:
            ours, theirs = (oracle.profile_lines(commands.read_text(f"{out}.jpprof")) for out in (expected, actual))
            if ours != theirs:
                problems.append("the per-line counts differ")
                details = diff(ours, theirs)
            elif not ours:
                problems.append("no per-line counts")
        if not problems:
            ours, theirs = (oracle.profile_allocations(commands.read_text(f"{out}.jpprof")) for out in (expected, actual))
            if ours != theirs:
                problems.append("the allocations differ")
                details = diff(ours, theirs)
        return problems, details

    # -- (b) and (c) --------------------------------------------------------------------------------

    def compare(self):
        programs = self.programs or oracle.demo_programs()
        for variant, _, options in VARIANTS:
            (self.work / variant / "runs").mkdir(parents=True, exist_ok=True)
        for program in programs:
            problems, details = [], ""
            for variant, _, options in VARIANTS:
                runs = self.work / variant / "runs"
                expected, actual = runs / f"{program}.instrumented", runs / f"{program}.agent"
                self.run(expected, f"{self.work / variant / 'instrumented-classes'}:{self.runtime}", f"demo.{program}")
                self.run(actual, self.work / "classes", f"demo.{program}",
                         [self.agent_option(f"{options},cache={self.work / 'cache'}")])
                more, more_details = self.compare_runs(expected, actual, variant.endswith("lines"))
                problems += [f"{variant}: {problem}" for problem in more]
                details += more_details
            if problems:
                self.checks.fail(f"{program}: {'; '.join(problems)}", details)
            else:
                contexts = len(commands.read_text(self.work / "precise" / "runs" / f"{program}.agent.calls.folded")
                               .splitlines())
                self.checks.pass_(f"{program}: the agent's profile is jp instrument's ({contexts} contexts), "
                                  "with each variant")
        self.cached(programs)

    def compare_runs(self, expected, actual, lines):
        """The problems of an agent run ACTUAL against the instrumented run EXPECTED, and details."""
        problems, details = [], ""
        if not files.same_bytes(f"{expected}.stdout", f"{actual}.stdout"):
            problems.append("stdout or exit status differs")
            details += indented(commands.output(["diff", f"{expected}.stdout", f"{actual}.stdout"])[0], 6)
        said = jp_lines(f"{actual}.stderr")
        if said:
            problems.append("the agent printed jp: lines")
            details += indented("\n".join(said), 5)
        more, more_details = self.same_profile(expected, actual, lines)
        return problems + more, details + more_details

    def cached(self, programs):
        entries = [path for path in (self.work / "cache").rglob("*") if path.is_file() and path.parent.name != "runtime"]
        problems, details = [], ""
        for program in programs:
            runs = self.work / "precise" / "runs"
            again = runs / f"{program}.cached"
            self.run(again, self.work / "classes", f"demo.{program}",
                     [self.agent_option(f"bba=precise,cache={self.work / 'cache'}")])
            more, more_details = self.compare_runs(runs / f"{program}.instrumented", again, False)
            problems += [f"{program}: {problem}" for problem in more]
            details += more_details
        if not entries:
            problems.append(f"no entries in {self.work / 'cache'}")
        self.checks.check(not problems, f"cache: every program again from the agent's cache ({len(entries)} entries), "
                          "the same profile", f"cache: {'; '.join(problems)}", details)

    # -- (d) ----------------------------------------------------------------------------------------

    def left_as_it_was(self):
        runs = self.work / "precise" / "runs"
        instrumented = self.work / "precise" / "instrumented-classes"
        expected, actual = runs / "Fig4.instrumented", runs / "Fig4.twice"
        if not pathlib.Path(f"{expected}.jpprof").is_file():
            self.run(expected, f"{instrumented}:{self.runtime}", "demo.Fig4")
        self.run(actual, f"{instrumented}:{self.runtime}", "demo.Fig4", [self.agent_option("cache=none")])
        said = jp_lines(f"{actual}.stderr")
        named = [line.split(":")[1].strip() for line in said]
        problems, details = self.same_profile(expected, actual)
        if ("demo.Fig4" not in named or len(named) != len(set(named))
                or not all(": already instrumented by JP" in line and line.endswith("; the class is left as it was")
                           for line in said)):
            problems.append("not one jp: line per instrumented class")
            details += indented("\n".join(said) or "(no jp: lines)", 10)
        self.checks.check(not problems, "left as it was: instrumented classes under the agent keep their bytes, "
                          f"with one jp: line each ({len(said)}), and the same profile",
                          f"left as it was: {'; '.join(problems)}", details)

    # -- (e) ----------------------------------------------------------------------------------------

    def options(self):
        runs = self.work / "options"
        runs.mkdir(parents=True, exist_ok=True)
        plain, unknown = runs / "Fig4.plain", runs / "Fig4.unknown"
        self.run(plain, self.work / "classes", "demo.Fig4")
        self.run(unknown, self.work / "classes", "demo.Fig4", [self.agent_option("bba=precise,colour=blue")])
        said = jp_lines(f"{unknown}.stderr")
        expected = ['jp: the load-time agent is off, the program runs unprofiled: unknown option "colour" '
                    '(keys: include, exclude, bba, lines, config, cache)']
        problems = []
        if said != expected:
            problems.append(f"stderr's jp: lines are {said}")
        if not files.same_bytes(f"{plain}.stdout", f"{unknown}.stdout"):
            problems.append("the program's output or exit status changed")
        if pathlib.Path(f"{unknown}.jpprof").exists():
            problems.append("a profile was written")
        self.checks.check(not problems, "options: an unknown option is one jp: line, and the program runs "
                          "unprofiled", f"options: {'; '.join(problems)}")

        narrowed = runs / "Nested.include"
        self.run(narrowed, self.work / "classes", "demo.Nested",
                 [self.agent_option(f"include=demo.Nested,cache={self.work / 'cache'}")])
        contexts = self.folded(narrowed, "calls") or []
        frames = {frame.split("(")[0].rsplit(".", 1)[0] for line in contexts for frame in line.rsplit(" ", 1)[0].split(";")}
        self.checks.check(bool(contexts) and all(frame.startswith("demo.Nested") for frame in frames),
                          f"options: include=demo.Nested instruments demo.Nested and its nested classes only "
                          f"({', '.join(sorted(frames))})",
                          f"options: include=demo.Nested gave the classes {sorted(frames)}")

    # -- (g) ----------------------------------------------------------------------------------------

    def natives(self):
        work = self.work / "natives"
        work.mkdir(parents=True, exist_ok=True)
        classes, library = work / "classes", work / "libnativecalls.so"
        jdk = pathlib.Path(self.javac).resolve().parents[1]
        built = (commands.run_split([str(self.javac), "-Xlint:all", "-Werror", "--release", "17", "-d", str(classes),
                                     str(NATIVES / "NativeCalls.java")], os.devnull, work / "javac.log") == 0
                 and commands.run_split(["gcc", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
                                         f"-I{jdk / 'include'}", f"-I{jdk / 'include' / 'linux'}", "-o",
                                         str(library), str(NATIVES / "native_calls.c")],
                                        os.devnull, work / "gcc.log") == 0)
        if not built:
            self.checks.fail(f"natives: the program or its library did not build (see {work})")
            return
        main, args = "natives.NativeCalls", [str(library)]
        plain, expected, actual = work / "plain", work / "oracle", work / "agent"
        self.run(plain, classes, main, args=args)
        try:
            status = oracle.run(oracle.build_agent(), self.java, main, classes, expected, f"{expected}.stdout",
                                f"{expected}.stderr", args=args, options="natives=on")
        except oracle.OracleError as error:
            self.checks.fail(f"natives: {error}")
            return
        with open(f"{expected}.stdout", "a") as file:
            file.write(f"exit {status}\n")
        self.run(actual, classes, main, [self.agent_option("bba=precise,include=natives.**,cache=none")], args)
        problems, details = [], ""
        if status == oracle.WARNED:
            problems.append(f"the oracle warned (see {expected}.stderr)")
        for run in (expected, actual):
            if not files.same_bytes(f"{plain}.stdout", f"{run}.stdout"):
                problems.append(f"{run.name}: stdout or exit status differs from the plain run")
                details += indented(commands.output(["diff", f"{plain}.stdout", f"{run}.stdout"])[0], 6)
        said = jp_lines(f"{actual}.stderr")
        if said:
            problems.append("the agent printed jp: lines")
            details += indented("\n".join(said), 5)
        compared = {}
        for metric in METRICS:
            # JP's signatures as the oracle's descriptors; contexts of 0 left out on both sides.
            ours = folded.nonzero(folded.jvm_names(line) for line in self.folded(actual, metric) or [])
            compared[metric] = theirs = folded.nonzero(folded.read(f"{expected}.{metric}.folded"))
            if ours != theirs:
                problems.append(f"the {metric} differ from the oracle's")
                details += diff(theirs, ours)
        # Every Java method of the program runs bytecodes: the contexts without any are the natives'.
        natives = len(compared["calls"]) - len(compared["bytecodes"])
        if not any(CALLBACK in line for line in compared["calls"]):
            problems.append(f"no context {CALLBACK}")
        self.checks.check(not problems, f"natives: the agent's profile of a program whose native methods call back "
                          f"into Java is the oracle's with natives=on ({natives} contexts of natives, of "
                          f"{len(compared['calls'])}), and its output the plain run's",
                          f"natives: {'; '.join(problems)}", details)

    # -- maven-demo, and (f) ------------------------------------------------------------------------

    def demo(self):
        problems, details = [], ""
        for variant, _, options in VARIANTS:
            runs = self.work / variant / "runs"
            expected, actual = runs / "maven-demo.instrumented", runs / "maven-demo.agent"
            main = "org.example.leaderboard.Main"
            self.run(expected, f"{self.work / variant / 'instrumented-demo-classes'}:{self.runtime}", main)
            self.run(actual, self.work / "demo-classes", main,
                     [self.agent_option(f"{options},cache={self.work / 'cache'}")])
            more, more_details = self.compare_runs(expected, actual, variant.endswith("lines"))
            problems += [f"{variant}: {problem}" for problem in more]
            details += more_details
        self.checks.check(not problems, "examples/maven-demo: the agent's profile is jp instrument's, with each variant",
                          f"examples/maven-demo: {'; '.join(problems)}", details)

    def surefire(self):
        project = self.work / "surefire"
        shutil.copytree(DEMO / "src", project / "src")
        profiles = project / "profiles"
        options = f"include=org.example.**,bba=precise,cache={self.work / 'cache'}"
        arg_line = (f"{self.agent_option(options)} -Djp.engine.cacheDir={self.work / 'engine'} "
                    f"-Djp.output={profiles}/")
        (project / "pom.xml").write_text(SUREFIRE_POM.replace("@ARGLINE@", arg_line))
        log = project / "mvn.log"
        status = commands.run_logged(["mvn", "-B", "test"], log, cwd=project)
        results = surefire.results(project / "target" / "surefire-reports")
        problems, details = [], ""
        if status != 0:
            problems.append(f"mvn test exited {status}")
            details += indented(commands.tail(log, 30))
        if not results or any(not line.endswith("\tpassed") for line in results):
            problems.append(f"tests: {surefire.results_counts(results)}")
        written = sorted(profiles.glob("*.jpprof")) if profiles.is_dir() else []
        contexts = []
        if len(written) != 1:
            problems.append(f"{len(written)} profiles written")
        else:
            contexts = self.folded(written[0].with_suffix(""), "calls") or []
            if not any("org.example.leaderboard.Leaderboard" in line for line in contexts):
                problems.append("the profile has no context of org.example.leaderboard.Leaderboard")
        said = [line for line in commands.read_text(log).splitlines() if line.startswith("jp:")]
        if said:
            problems.append("jp: lines in the build's output")
            details += indented("\n".join(said), 5)
        self.checks.check(not problems, f"surefire: maven-demo's tests with the agent in argLine, "
                          f"{surefire.results_counts(results)}, one profile of {len(contexts)} contexts",
                          f"surefire: {'; '.join(problems)}", details)


# A callback under the native method that made it, as the folded lines of NativeCalls write it.
CALLBACK = "natives.NativeCalls.weighted(J)J;natives.NativeCalls.weight(I)I "

# examples/maven-demo's tests, without the JP plugin: the agent instruments the classes as they load.
SUREFIRE_POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <artifactId>maven-demo-agent</artifactId>
  <version>1.0.0</version>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
  <dependencies>
    <dependency>
      <groupId>junit</groupId>
      <artifactId>junit</artifactId>
      <version>4.13.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <artifactId>maven-resources-plugin</artifactId>
        <version>3.3.1</version>
      </plugin>
      <plugin>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
      </plugin>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.5.2</version>
        <configuration>
          <argLine>@ARGLINE@</argLine>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
"""


def diff(first, second):
    """The first lines in which two sorted lists of lines differ, indented."""
    first_set, second_set = set(first), set(second)
    only_first = [f"< {line}" for line in first if line not in second_set]
    only_second = [f"> {line}" for line in second if line not in first_set]
    return indented("\n".join(only_first[:5] + only_second[:5]))


def main():
    suite = AgentSuite(sys.argv[1:])
    if suite.build():
        suite.compare()
        suite.left_as_it_was()
        suite.options()
        suite.demo()
        suite.surefire()
        suite.natives()
    suite.checks.summary(PROGRAM)
    return suite.checks.status()


if __name__ == "__main__":
    build.main(PROGRAM, main)
