"""Gradle instrument benchmark: how long the plugin's jpInstrument takes on a generated project of
10,000 classes (by default), cold, with nothing changed, and after a one-class edit; and how the cold
run compares with JaCoCo's offline instrumentation (jacococli instrument) of the same classes. See
README.md beside this file.

usage: integration-tests/bench/gradle-instrument.sh [CLASSES]   (which runs this file)
  BENCH_RUNS=N      runs of each measurement, median kept (default 3)
  BENCH_SEED=N      the generator's seed (default 1)
  JACOCO_VERSION=V  org.jacoco.cli version from Maven Central (default 0.8.15)

Builds jp (cargo, release) and the plugin (mvn package, installed into a throwaway local repository
under target/ as the gradle suite does), generates the project with generate-java-project.py,
compiles it once with `gradle classes`, then times everything with the `gradle` on PATH (Debian's
4.4.1) in a daemon of its own, warmed up first and stopped at the end.
Exits 0 when it measured, 1 when a measured run failed or gave a wrong count, 2 when it could not run.
"""
import collections
import hashlib
import os
import pathlib
import re
import shutil
import sys
import tempfile
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "lib"))
from jptest import build, commands, jp_lines, stats  # noqa: E402

PROGRAM = "gradle-instrument.sh"
GENERATOR = HERE / "generate-java-project.py"
CENTRAL = "https://repo1.maven.org/maven2"
EDIT_POINT = re.compile(r"/\*edit\*/([0-9]+)")
BUILD_GRADLE = """// Written by integration-tests/bench/gradle-instrument.py.
buildscript {{
    repositories {{
        mavenLocal()
    }}
    dependencies {{
        classpath 'org.jpprof:jp-gradle-plugin:{version}'
    }}
}}

apply plugin: 'java'
apply plugin: 'org.jpprof.jp'

// Gradle 4.4.1 recompiles everything by default; later versions compile incrementally.
compileJava.options.incremental = true
"""
# The table's rows, in order: key and label.
ROWS = (
    ("cli-cold", "cold: jp instrument --cache (CLI)"),
    ("cli-nocache", "cold: jp instrument, no cache (CLI)"),
    ("gradle-cold", "cold: gradle jpInstrument"),
    ("jacoco", "cold: jacococli instrument"),
    ("gradle-uptodate", "no-op: gradle jpInstrument"),
    ("gradle-rerun", "no-op: jpInstrument --rerun-tasks"),
    ("cli-noop", "no-op: jp instrument (CLI)"),
    ("edit-compile", "edit: gradle classes"),
    ("gradle-edit", "edit: gradle jpInstrument"),
    ("cli-edit", "edit: jp instrument (CLI)"),
)


def note(text):
    print(f"{PROGRAM}: {text}", file=sys.stderr, flush=True)


def count_classes(directory):
    return sum(1 for _ in pathlib.Path(directory).rglob("*.class"))


def apparent_megabytes(directory):
    """The apparent size of DIRECTORY, its subdirectories included, in MB (10^6 bytes), as `du -sb`."""
    total = os.lstat(directory).st_size
    for parent, directories, names in os.walk(directory):
        total += sum(os.lstat(os.path.join(parent, name)).st_size for name in directories + names)
    return total / 1e6


def median_cell(values):
    """The median in ms; blank for none (the CLI and JaCoCo have no engine time of their own)."""
    middle = stats.median(values)
    return "" if middle is None else f"{middle:.0f}"


def ratio_cell(numerator, denominator):
    value = stats.ratio(numerator, denominator)
    return "-" if value is None else f"{value:.1f}x"


def fetch_jacoco(version, directory):
    """org.jacoco.cli's nodeps jar of VERSION from Maven Central, checked against Central's SHA-1,
    kept in DIRECTORY; returns its path."""
    jar = directory / f"org.jacoco.cli-{version}-nodeps.jar"
    if jar.is_file() and jar.stat().st_size > 0:
        return jar
    url = f"{CENTRAL}/org/jacoco/org.jacoco.cli/{version}/{jar.name}"
    note(f"downloading {url}")
    directory.mkdir(parents=True, exist_ok=True)
    try:
        with urllib.request.urlopen(url) as response:
            data = response.read()
        with urllib.request.urlopen(f"{url}.sha1") as response:
            expected = response.read().decode(errors="replace")[:40]
    except OSError as error:
        raise build.SuiteError(f"cannot download {url}") from error
    if hashlib.sha1(data).hexdigest() != expected:
        raise build.SuiteError(f"{url}: SHA-1 differs from Central's {expected}")
    part = jar.with_name(f"{jar.name}.part")
    part.write_bytes(data)
    part.rename(jar)
    return jar


class Bench:
    def __init__(self, classes, runs, seed, jacoco_version):
        self.classes, self.runs, self.seed, self.jacoco_version = classes, runs, seed, jacoco_version
        target = build.target_dir()
        self.jp = str(build.release_binary("jp"))
        self.work = target / "bench" / "gradle-instrument"
        self.logs = self.work / "logs"
        self.repo = self.work / "m2"
        self.jacoco_dir = target / "bench" / "cache" / "jacoco"
        self.status = 0
        self.walls = collections.defaultdict(list)
        self.engines = collections.defaultdict(list)
        self.cpus = {}
        self.details = {}

    def bad(self, text):
        note(text)
        self.status = 1

    # -- set-up -----------------------------------------------------------------------------------

    def prepare(self):
        for tool in ("gradle", "mvn", "java"):
            if not shutil.which(tool):
                raise build.SuiteError(f"no {tool} on PATH")
        if not os.access("/usr/bin/time", os.X_OK):
            raise build.SuiteError("no /usr/bin/time (apt-get install time)")
        self.version = build.root_version()
        self.logs.mkdir(parents=True, exist_ok=True)
        (self.work / "gradle-home").mkdir(exist_ok=True)

        note("building jp (cargo build --release -p jp-cli) and the plugin (mvn package)")
        build.build_jp()
        mvn_log = self.logs / "mvn.log"
        if commands.run_logged(["mvn", "-q", "-B", "-f", str(build.ROOT / "pom.xml"), "package", "-DskipTests",
                                "-pl", "gradle-plugin", "-am"], mvn_log) != 0:
            print(commands.tail(mvn_log, 40), file=sys.stderr, flush=True)
            raise build.SuiteError("mvn package failed")
        build.install_jp(self.repo, ["parent", "runtime", "engine", "gradle-plugin"])
        self.jacoco = str(fetch_jacoco(self.jacoco_version, self.jacoco_dir))
        self.make_project()

    def make_project(self):
        """The generated project, named after the generator's contents too, so that a changed
        generator makes a new project; its build files written anew."""
        digest = hashlib.sha256(GENERATOR.read_bytes()).hexdigest()[:12]
        self.project = self.work / f"project-{self.classes}-s{self.seed}-{digest}"
        if not (self.project / "leaf.txt").is_file():
            note(f"generating {self.classes} classes (seed {self.seed})")
            partial = self.project.with_name(f"{self.project.name}.tmp")
            shutil.rmtree(partial, ignore_errors=True)
            if commands.run_passing([sys.executable, str(GENERATOR), str(self.classes), str(partial),
                                     "--seed", str(self.seed)]) != 0:
                raise build.SuiteError("could not generate the project")
            partial.rename(self.project)
        (self.project / "build.gradle").write_text(BUILD_GRADLE.format(version=self.version))
        (self.project / "settings.gradle").write_text("rootProject.name = 'bench'\n")
        (self.project / "gradle.properties").write_text("org.gradle.jvmargs=-Xmx2g\n")
        self.leaf = self.project / (self.project / "leaf.txt").read_text().strip()
        self.compiled = self.project / "build" / "classes" / "java" / "main"
        self.instrumented = self.project / "build" / "jp" / "classes" / "main"
        self.plugin_cache = self.project / "build" / "jp" / "cache" / "main"
        self.cli_out = self.work / "cli-out"
        self.cli_cache = self.work / "cli-cache"
        self.jacoco_out = self.work / "jacoco-out"

    # -- timing -----------------------------------------------------------------------------------

    def log(self, name):
        return self.logs / f"{name}.log"

    def timed(self, name, args):
        """Runs the process ARGS with its output in logs/NAME.log and its user and system CPU
        seconds in logs/NAME.cpu; returns its exit status and wall time (ms)."""
        watch = commands.Stopwatch()
        status = commands.run_timed(args, self.log(name), self.logs / f"{name}.cpu")
        return status, watch.milliseconds()

    def in_gradle(self, name, *args):
        """A timed build in the benchmark's daemon; returns its status and wall time (ms)."""
        watch = commands.Stopwatch()
        status = commands.run_logged(["gradle", "--daemon", "--console=plain", "--offline",
                                      f"-Dmaven.repo.local={self.repo}",
                                      f"-Djp.engine.cacheDir={self.work / 'engine-lib'}", *args],
                                     self.log(name), cwd=self.project)
        return status, watch.milliseconds()

    def cli(self, name, *args):
        return self.timed(name, [self.jp, "instrument", "--quiet", *args, "--out", str(self.cli_out),
                                 str(self.compiled)])

    def cpu(self, name):
        """The user and system CPU seconds of the process of run NAME, or None."""
        return commands.cpu_seconds(self.logs / f"{name}.cpu")

    def record(self, row, wall_ms, engine_ms=None, cpu=None, detail=None):
        self.walls[row].append(wall_ms)
        if engine_ms is not None:
            self.engines[row].append(engine_ms)
        if cpu is not None:
            self.cpus[row] = cpu
        if detail is not None:
            self.details[row] = detail

    def cli_detail(self, name):
        return jp_lines.cli_summary(commands.read_text(self.log(name)))

    def plugin_detail(self, name):
        return jp_lines.plugin_summary(commands.read_text(self.log(name)))

    def must_succeed(self, name, status, what):
        if status != 0:
            print(commands.tail(self.log(name), 30), file=sys.stderr, flush=True)
            raise build.SuiteError(f"{what} failed")

    def expect_classes(self, tool, directory):
        written = count_classes(directory)
        if written != self.input_classes:
            self.bad(f"{tool} wrote {written} classes, not {self.input_classes}")

    # -- the measurements -------------------------------------------------------------------------

    def warm_up(self):
        version = commands.output(["gradle", "--version"])[0]
        self.gradle_version = next((line.split()[1] for line in version.splitlines()
                                    if line.startswith("Gradle ") and len(line.split()) > 1), "")
        note(f"warming up a Gradle {self.gradle_version} daemon and compiling (gradle classes)")
        self.must_succeed("warm-help", self.in_gradle("warm-help", "help")[0], "gradle help")
        status, self.compile_ms = self.in_gradle("compile", "classes")
        self.must_succeed("compile", status, "gradle classes")
        self.input_classes = count_classes(self.compiled)
        if self.input_classes != self.classes:
            self.bad(f"the compiler wrote {self.input_classes} classes, not {self.classes}")
        self.input_mb = apparent_megabytes(self.compiled)
        shutil.rmtree(self.instrumented, ignore_errors=True)
        shutil.rmtree(self.plugin_cache, ignore_errors=True)
        self.must_succeed("warm-instrument", self.in_gradle("warm-instrument", "jpInstrument")[0],
                          "gradle jpInstrument")
        warm = f"{self.jacoco_out}.warm"
        status, _ = self.timed("warm-jacoco", ["java", "-jar", self.jacoco, "instrument", str(self.compiled),
                                               "--dest", warm, "--quiet"])
        self.must_succeed("warm-jacoco", status, "jacococli instrument")
        shutil.rmtree(warm, ignore_errors=True)

    def cold(self, retired):
        """Cold runs, interleaved. Earlier outputs are moved aside into RETIRED, not deleted, until
        all cold runs are done: on ext4, creating files right after many were deleted is slower, and
        a deletion before only some of the runs would favour the others."""
        def retire(*directories):
            retired.mkdir(exist_ok=True)
            for directory in directories:
                if directory.exists():
                    directory.rename(pathlib.Path(tempfile.mkdtemp(dir=retired)) / directory.name)

        note(f"cold runs ({self.runs} of each, interleaved)")
        for run in range(1, self.runs + 1):
            # Without a cache the engine writes only the output: what the cache's own writes cost.
            retire(self.cli_out)
            name = f"cli-nocache-{run}"
            status, ms = self.cli(name)
            if status != 0:
                self.bad(f"jp instrument failed: {self.log(name)}")
            self.record("cli-nocache", ms, cpu=self.cpu(name), detail=self.cli_detail(name))

            retire(self.cli_out, self.cli_cache)
            name = f"cli-cold-{run}"
            status, ms = self.cli(name, "--cache", str(self.cli_cache))
            if status != 0:
                self.bad(f"jp instrument failed: {self.log(name)}")
            self.record("cli-cold", ms, cpu=self.cpu(name), detail=self.cli_detail(name))
            self.expect_classes("jp instrument", self.cli_out)

            retire(self.jacoco_out)
            name = f"jacoco-{run}"
            status, ms = self.timed(name, ["java", "-jar", self.jacoco, "instrument", str(self.compiled),
                                           "--dest", str(self.jacoco_out)])
            if status != 0:
                self.bad(f"jacococli failed: {self.log(name)}")
            said = [line for line in commands.read_text(self.log(name)).splitlines() if "instrumented" in line.lower()]
            self.record("jacoco", ms, cpu=self.cpu(name), detail=said[0] if said else "")
            self.expect_classes("jacococli", self.jacoco_out)

            retire(self.instrumented, self.plugin_cache)
            name = f"gradle-cold-{run}"
            status, ms = self.in_gradle(name, "jpInstrument")
            if status != 0:
                self.bad(f"gradle jpInstrument failed: {self.log(name)}")
            detail = self.plugin_detail(name)
            self.record("gradle-cold", ms, jp_lines.engine_milliseconds(detail), detail=detail)
            self.expect_classes("jpInstrument", self.instrumented)
        shutil.rmtree(retired, ignore_errors=True)

    def no_op(self):
        note("no-op runs")
        for run in range(1, self.runs + 1):
            name = f"gradle-uptodate-{run}"
            status, ms = self.in_gradle(name, "jpInstrument")
            if status != 0:
                self.bad(f"gradle jpInstrument failed: {self.log(name)}")
            self.record("gradle-uptodate", ms, detail="task UP-TO-DATE, engine not called")
            if not re.search(r"^:jpInstrument UP-TO-DATE", commands.read_text(self.log(name)), re.MULTILINE):
                self.bad(f"jpInstrument was not UP-TO-DATE: {self.log(name)}")

            # --rerun-tasks makes Gradle run the engine; -x keeps it from recompiling the project.
            name = f"gradle-rerun-{run}"
            status, ms = self.in_gradle(name, "jpInstrument", "--rerun-tasks", "-x", "compileJava",
                                        "-x", "processResources", "-x", "classes")
            if status != 0:
                self.bad(f"gradle jpInstrument --rerun-tasks failed: {self.log(name)}")
            detail = self.plugin_detail(name)
            self.record("gradle-rerun", ms, jp_lines.engine_milliseconds(detail), detail=detail)
            if not detail.startswith(f"0 rewritten, {self.input_classes} reused,"):
                self.bad(f"no-op rerun: {detail}")
            if re.search(r"^:compileJava", commands.read_text(self.log(name)), re.MULTILINE):
                self.bad(f"no-op rerun ran compileJava: {self.log(name)}")

            name = f"cli-noop-{run}"
            status, ms = self.cli(name, "--cache", str(self.cli_cache))
            if status != 0:
                self.bad(f"jp instrument failed: {self.log(name)}")
            self.record("cli-noop", ms, cpu=self.cpu(name), detail=self.cli_detail(name))

    def edit(self):
        """One method body of a leaf class edited, then the project compiled and instrumented."""
        note(f"one-class edits ({self.leaf.relative_to(self.project)})")
        for run in range(1, self.runs + 1):
            source = self.leaf.read_text()
            match = EDIT_POINT.search(source)
            if not match:
                raise build.SuiteError(f"{self.leaf}: no /*edit*/ point")
            self.leaf.write_text(EDIT_POINT.sub(f"/*edit*/{int(match.group(1)) + 1}", source, count=1))

            name = f"edit-compile-{run}"
            status, ms = self.in_gradle(name, "classes")
            if status != 0:
                self.bad(f"gradle classes failed: {self.log(name)}")
            self.record("edit-compile", ms, detail="incremental javac of the edited class")

            name = f"gradle-edit-{run}"
            status, ms = self.in_gradle(name, "jpInstrument")
            if status != 0:
                self.bad(f"gradle jpInstrument failed: {self.log(name)}")
            detail = self.plugin_detail(name)
            self.record("gradle-edit", ms, jp_lines.engine_milliseconds(detail), detail=detail)
            rewritten = jp_lines.rewritten(detail)
            if rewritten != 1:
                self.bad(f"after a one-class edit jpInstrument rewrote {'?' if rewritten is None else rewritten} "
                         f"classes: {detail}")

            name = f"cli-edit-{run}"
            status, ms = self.cli(name, "--cache", str(self.cli_cache))
            if status != 0:
                self.bad(f"jp instrument failed: {self.log(name)}")
            detail = self.cli_detail(name)
            self.record("cli-edit", ms, cpu=self.cpu(name), detail=detail)
            if not detail.startswith("1 classes rewritten,"):
                self.bad(f"after a one-class edit jp instrument: {detail}")

    # -- the table --------------------------------------------------------------------------------

    def cpu_cell(self, row):
        """The last run's `user/sys` seconds of ROW; `-` for a gradle client's, which say nothing."""
        seconds = self.cpus.get(row)
        return "-" if seconds is None else f"{seconds[0]:.1f}/{seconds[1]:.1f}"

    def cpu_sum(self, row):
        seconds = self.cpus.get(row)
        return None if seconds is None else sum(seconds)

    def table(self):
        java = commands.output(["java", "-version"])[0]
        java_version = next(iter(re.findall(r'version "([^"]*)"', java)), "")
        load = " ".join(commands.read_text("/proc/loadavg").split()[:3])
        print()
        print(f"project: {self.input_classes} classes, {self.input_mb:.1f} MB of class files, `gradle classes` "
              f"{self.compile_ms // 1000} s (compiles only when the project is new)")
        print(f"gradle {self.gradle_version} (--offline, warmed daemon), java {java_version}, jacoco "
              f"{self.jacoco_version}, {len(os.sched_getaffinity(0))} cores, load {load}")
        print(f"medians of {self.runs} runs; wall = the whole command (gradle client and build, or process); "
              "engine = the plugin's 'in N ms';")
        print("user/sys s = CPU seconds of the process (the last run), for the CLI and JaCoCo")
        print()
        print(f"{'run':<36} {'wall ms':>8} {'engine ms':>9} {'user/sys s':>11}   detail")
        for row, label in ROWS:
            print(f"{label:<36} {median_cell(self.walls[row]):>8} {median_cell(self.engines[row]):>9} "
                  f"{self.cpu_cell(row):>11}   {self.details.get(row, '')}")
        print()
        jacoco = stats.median(self.walls["jacoco"])
        print("ratio jacoco / jp instrument --cache (CLI wall):   "
              f"{ratio_cell(jacoco, stats.median(self.walls['cli-cold']))}")
        print("ratio jacoco / jp instrument, no cache (CLI wall): "
              f"{ratio_cell(jacoco, stats.median(self.walls['cli-nocache']))}")
        print("ratio jacoco / jp instrument, no cache (CPU):      "
              f"{ratio_cell(self.cpu_sum('jacoco'), self.cpu_sum('cli-nocache'))} (user+sys seconds, last run)")
        print("ratio jacoco / gradle jpInstrument (wall):         "
              f"{ratio_cell(jacoco, stats.median(self.walls['gradle-cold']))}")
        print("ratio jacoco / gradle jpInstrument (engine time):  "
              f"{ratio_cell(jacoco, stats.median(self.engines['gradle-cold']))}", flush=True)

    def run(self):
        self.prepare()
        # The daemon is this benchmark's own (its own GRADLE_USER_HOME): stopped on the way out.
        try:
            self.warm_up()
            self.cold(self.work / "retired")
            self.no_op()
            self.edit()
        finally:
            commands.run_logged(["gradle", "--stop"], os.devnull)
        self.table()
        return self.status


def positive(text, what):
    if not re.fullmatch(r"[1-9][0-9]*", text):
        raise build.SuiteError(f"{what} must be a positive number, not '{text}'")
    return int(text)


def bench():
    if len(sys.argv) > 2:
        raise build.SuiteError("usage: gradle-instrument.sh [CLASSES]")
    classes = positive(sys.argv[1] if len(sys.argv) > 1 else "10000", "CLASSES")
    runs = positive(os.environ.get("BENCH_RUNS") or "3", "BENCH_RUNS")
    seed = os.environ.get("BENCH_SEED") or "1"
    os.environ["GRADLE_USER_HOME"] = str(build.target_dir() / "bench" / "gradle-instrument" / "gradle-home")
    return Bench(classes, runs, seed, os.environ.get("JACOCO_VERSION") or "0.8.15").run()


if __name__ == "__main__":
    build.main(PROGRAM, bench)
