"""Compiler-profile benchmark: reports at the scale of a real program. It instruments the Kotlin
compiler (org.jetbrains.kotlin:kotlin-compiler-embeddable and its runtime dependencies, from Maven
Central), lets it compile three small Kotlin files, and then times `jp report` on the profile in
each format, with its peak memory, and Chromium opening the HTML report. See README.md beside
this file.

usage: integration-tests/bench/compiler-profile.sh   (which runs this file)
  KOTLIN_VERSION=V   the compiler's version (default 2.1.0)
  COMPILER_HEAP=SIZE the compiler JVM's -Xmx (default 4g)
  COMPARED_JP=PATH, COMPARED_RUNTIME=JAR  one more instrumented compile, of the jars that jp (an
                     older build's) instruments, with its runtime jar
  COMPILE_ONLY=1     stop after the compiles (their time and memory), without the reports
  REPORT_TIMEOUT=S   seconds a report, the page or `go tool pprof` may take (default 1200)

The compiler's jars are fetched once into ${JP_CACHE_DIR:-~/.cache/jp}/kotlin-compiler-V/; the
instrumented jars, the profile and the reports are kept in target/bench/compiler-profile/, and
`jp instrument --cache` makes a second run's instrumentation quick.
Exits 0 when it measured, 1 when a step failed (a compile, a report, the page, pprof), 2 when it
could not run.
"""
import gzip
import os
import pathlib
import shutil
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "lib"))
from jptest import build, commands, files, gc_log, jdks, jp_lines  # noqa: E402

PROGRAM = "compiler-profile.sh"
FORMATS = ("text", "html", "folded", "speedscope", "pprof")
REPORTS_SUITE = build.ROOT / "integration-tests" / "reports"
# As report.py: above jp report's default of 1 GiB, so that the size of each format shows.
MAX_OUTPUT = "8G"
FOLDED_THRESHOLD = "0.01"
COMPILER = "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler"
# Runs the compiler, then writes the class histogram of the live heap (bench/HeapAtExit.java).
LAUNCHER = HERE / "compiler-profile" / "bench" / "HeapAtExit.java"
# Where the heap goes, by the classes of a class histogram: what JP's runtime keeps, and strings.
HEAP_PARTS = (
    ("contexts", ("org.jpprof.runtime.IC", "org.jpprof.runtime.ExtraIC", "org.jpprof.runtime.SiteIC")),
    ("child tables", ("[Lorg.jpprof.runtime.IC;",)),
    ("method identifiers", ("org.jpprof.runtime.MID", "[Lorg.jpprof.runtime.MID;")),
    ("strings", ("[B", "java.lang.String")),
)
DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1"
POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <!-- Written by integration-tests/bench/compiler-profile.py: the compiler's runtime class path. -->
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.jp.bench</groupId>
  <artifactId>compiler-profile</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.jetbrains.kotlin</groupId>
      <artifactId>kotlin-compiler-embeddable</artifactId>
      <version>{version}</version>
    </dependency>
  </dependencies>
</project>
"""
# Small but ordinary Kotlin: a data class, generic functions taking lambdas, an interface with
# objects implementing it, a sealed class and a `when` over it.
SOURCES = {
    "Shapes.kt": """package demo.shapes

data class Point(val x: Double, val y: Double) {
    operator fun plus(other: Point) = Point(x + other.x, y + other.y)

    fun distanceTo(other: Point): Double {
        val dx = x - other.x
        val dy = y - other.y
        return kotlin.math.sqrt(dx * dx + dy * dy)
    }
}

data class Polygon(val name: String, val corners: List<Point>) {
    val perimeter: Double
        get() = corners.indices.sumOf { corners[it].distanceTo(corners[(it + 1) % corners.size]) }

    fun translated(by: Point) = copy(corners = corners.map { it + by })
}
""",
    "Collections.kt": """package demo.util

fun <T, K : Comparable<K>> topBy(items: Iterable<T>, count: Int, key: (T) -> K): List<T> =
    items.sortedByDescending(key).take(count)

inline fun <T, R> Iterable<T>.foldIndexedInto(initial: R, step: (index: Int, acc: R, T) -> R): R {
    var acc = initial
    forEachIndexed { index, item -> acc = step(index, acc, item) }
    return acc
}

fun <K, V> groupCounts(items: List<V>, keyOf: (V) -> K): Map<K, Int> =
    items.groupingBy(keyOf).eachCount().toSortedMap(compareBy { it.toString() })

fun wordsByLength(text: String): Map<Int, List<String>> =
    text.split(Regex("\\\\s+")).filter { it.isNotBlank() }.groupBy { it.length }
        .mapValues { (_, words) -> words.distinct().sorted() }
""",
    "Pricing.kt": """package demo.pricing

import demo.shapes.Point
import demo.shapes.Polygon
import demo.util.topBy

interface PriceRule {
    val name: String
    fun price(area: Polygon): Double
    fun describe(): String = "$name rule"
}

object FlatRate : PriceRule {
    override val name = "flat"
    override fun price(area: Polygon) = 10.0 * area.corners.size
}

object ByPerimeter : PriceRule {
    override val name = "perimeter"
    override fun price(area: Polygon) = area.perimeter * 1.5
    override fun describe() = "${super.describe()} (1.5 per unit)"
}

sealed class Quote {
    data class Accepted(val rule: PriceRule, val amount: Double) : Quote()
    data class Rejected(val reason: String) : Quote()
}

fun quote(area: Polygon, rules: List<PriceRule>): Quote {
    if (area.corners.size < 3) return Quote.Rejected("not a polygon: ${area.name}")
    val best = topBy(rules, 1) { -it.price(area) }.first()
    return Quote.Accepted(best, best.price(area))
}

fun main() {
    val square = Polygon("square", listOf(Point(0.0, 0.0), Point(1.0, 0.0), Point(1.0, 1.0), Point(0.0, 1.0)))
    when (val q = quote(square.translated(Point(2.0, 3.0)), listOf(FlatRate, ByPerimeter))) {
        is Quote.Accepted -> println("${q.rule.describe()}: ${q.amount}")
        is Quote.Rejected -> println(q.reason)
    }
}
""",
}


def heap_parts(histogram):
    """From the text of a class histogram: the live heap's bytes, and the bytes and instances of
    each part of HEAP_PARTS; None when the text holds no total."""
    rows, total = {}, None
    for line in histogram.splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[0].endswith(":") and fields[1].isdigit() and fields[2].isdigit():
            rows[fields[3]] = (int(fields[1]), int(fields[2]))
        elif len(fields) >= 3 and fields[0] == "Total" and fields[2].isdigit():
            total = int(fields[2])
    if total is None:
        return None
    parts = [(label, sum(rows.get(name, (0, 0))[1] for name in names),
              sum(rows.get(name, (0, 0))[0] for name in names)) for label, names in HEAP_PARTS]
    return total, parts


def heap_line(histogram):
    """One line that says where the live heap of HISTOGRAM (a class histogram's text) goes."""
    found = heap_parts(histogram)
    if found is None:
        return None
    total, parts = found
    shown = [f"{label} {size / 1e6:.0f} MB" + (f" ({count:,})" if label == "contexts" else "")
             for label, size, count in parts if size]
    rest = total - sum(size for _, size, _ in parts)
    return f"live heap as it ended: {total / 1e6:.0f} MB: " + ", ".join([*shown, f"the rest {rest / 1e6:.0f} MB"])


def note(text):
    print(f"{PROGRAM}: {text}", file=sys.stderr, flush=True)


def seconds_setting(name, default):
    text = os.environ.get(name) or default
    if not text.isdigit() or int(text) == 0:
        raise build.SuiteError(f"{name} must be a positive number of seconds, not '{text}'")
    return int(text)


def fetch_compiler(version):
    """The compiler's jar and its runtime dependencies, as Maven resolves them, fetched once into
    the cache; sorted paths."""
    def fetch(partial):
        (partial / "pom.xml").write_text(POM.format(version=version))
        log = partial / "mvn.log"
        args = ["mvn", "-B", "-q", "-f", str(partial / "pom.xml"), f"{DEPENDENCY_PLUGIN}:copy-dependencies",
                "-DincludeScope=runtime", f"-DoutputDirectory={partial / 'jars'}"]
        if commands.run_logged(args, log) != 0:
            print(commands.tail(log, 30), flush=True)
            raise build.SuiteError(f"could not fetch kotlin-compiler-embeddable {version}")

    home = build.made_once(build.cache_dir() / f"kotlin-compiler-{version}", fetch)
    jars = sorted((home / "jars").glob("*.jar"))
    if not any(jar.name.startswith("kotlin-compiler-embeddable-") for jar in jars):
        raise build.SuiteError(f"no kotlin-compiler-embeddable jar in {home / 'jars'}")
    return jars


def timed_run(args, log, timeout, cwd=None):
    """Runs ARGS under /usr/bin/time and timeout(1), output into LOG; returns its exit status (124
    when it ran out of time), wall seconds and peak resident memory in MB (None when unknown)."""
    readings = log.with_name(f"{log.name}.time")
    status = commands.run_logged(["/usr/bin/time", "-o", str(readings), "-f", "%e %M", "timeout", "-k", "60",
                                  str(timeout), *map(str, args)], log, cwd)
    wall, peak = time_readings(commands.read_text(readings))
    return status, wall, peak


def time_readings(text):
    """The wall seconds and peak memory in MB of a `/usr/bin/time -f "%e %M"` file, each None when
    missing. time puts `Command exited with non-zero status N` before them when the command failed."""
    words = next((line.split() for line in reversed(text.split("\n")) if line.strip()), [])
    try:
        wall, kilobytes = float(words[0]), int(words[1])
    except (IndexError, ValueError):
        return None, None
    return wall, kilobytes / 1024


def profile_shape(path):
    """What a profile holds: its `node` records (contexts, per thread group), frames, thread groups,
    and its contexts' mean and greatest depth (a top-level context is at depth 1)."""
    depth = {0: 0}
    frames = groups = deepest = depths = 0
    with open(path, "rb") as profile:
        for line in profile:
            if line.startswith(b"node "):
                node, parent = line.split(b" ", 3)[1:3]
                level = depth[int(parent)] + 1
                depth[int(node)] = level
                deepest = max(deepest, level)
                depths += level
            elif line.startswith(b"frame "):
                frames += 1
            elif line.startswith(b"thread "):
                groups += 1
    contexts = len(depth) - 1
    return {"contexts": contexts, "frames": frames, "groups": groups, "depth": deepest,
            "mean depth": depths / contexts if contexts else 0}


def unzipped_size(path):
    """The bytes of a gzip file once uncompressed: what pprof reads."""
    size = 0
    with gzip.open(path) as file:
        while chunk := file.read(1 << 20):
            size += len(chunk)
    return size


def table_row(label, wall, peak, size=None):
    """A row of the table: wall seconds, peak MB and output MB, `-` for what a step has not."""
    def shown(value, width, digits):
        return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}f}"
    return f"{label:<34} {shown(wall, 9, 1)} {shown(peak, 9, 0)} {shown(size, 10, 1)}"


class Bench:
    def __init__(self):
        self.version = os.environ.get("KOTLIN_VERSION") or "2.1.0"
        self.heap = os.environ.get("COMPILER_HEAP") or "4g"
        self.timeout = seconds_setting("REPORT_TIMEOUT", "1200")
        self.compared = (os.environ.get("COMPARED_JP"), os.environ.get("COMPARED_RUNTIME"))
        if any(self.compared) and not all(self.compared):
            raise build.SuiteError("COMPARED_JP and COMPARED_RUNTIME go together")
        self.compile_only = os.environ.get("COMPILE_ONLY") == "1"
        self.work = build.target_dir() / "bench" / "compiler-profile"
        self.work.mkdir(parents=True, exist_ok=True)
        self.launcher = self.work / "launcher"
        self.failures = []

    @staticmethod
    def row(label, wall, peak, size=None):
        print(table_row(label, wall, peak, size), flush=True)

    def fail(self, text, log=None):
        self.failures.append(text)
        print(f"FAIL {text}", flush=True)
        if log is not None:
            print(commands.tail(log, 20), flush=True)

    def instrument(self, jp, jars, name="instrumented"):
        out = self.work / name
        log = self.work / f"{name}.log"
        note(f"instrumenting {len(jars)} jars into {out}")
        status, wall, peak = timed_run([jp, "instrument", *jars, "--out", out, "--cache", self.work / f"{name}-cache",
                                        "--quiet"], log, self.timeout)
        if status != 0:
            print(commands.tail(log, 30), flush=True)
            raise build.SuiteError("jp instrument failed")
        print(f"jp instrument: {jp_lines.cli_summary(commands.read_text(log))} ({wall:.1f} s)", flush=True)
        return [out / jar.name for jar in jars]

    def compile(self, name, class_path, java, stdlib, sources, extra=()):
        """Runs the compiler on SOURCES into a fresh directory NAME; returns that directory, or None
        when it failed."""
        out = self.work / "compile" / name
        log = self.work / f"compile-{name}.log"
        heap_log = self.work / f"compile-{name}.gc"
        histogram = self.work / f"compile-{name}.histogram"
        histogram.unlink(missing_ok=True)
        args = [java, f"-Xmx{self.heap}", gc_log.option(heap_log), f"-Dbench.histogram={histogram}", *extra,
                "-cp", os.pathsep.join(map(str, [self.launcher, *class_path])), "bench.HeapAtExit",
                COMPILER, "-no-stdlib", "-no-reflect", "-classpath", stdlib, "-d", out, *sources]
        status, wall, peak = timed_run(args, log, self.timeout)
        self.row(f"compile, {name}", wall, peak)
        heap = gc_log.peak_heap_mb(commands.read_text(heap_log))
        if heap is not None:
            print(f"  peak heap after a collection: {heap:.0f} MB", flush=True)
        parts = heap_line(commands.read_text(histogram)) if histogram.is_file() else None
        if parts:
            print(f"  {parts}", flush=True)
        if status != 0 or not files.files_under(out):
            self.fail(f"the {name} compile exited with {status}" + ("" if status else " and wrote no class"), log)
            return None
        return out

    def report(self, jp, profile, report_format, options=(), name=None):
        """Times one `jp report`; returns whether it wrote its report (a refusal over the size limit
        is noted, not failed: that is the limit doing its job)."""
        name = name or report_format
        out = self.work / f"report.{name}"
        out.unlink(missing_ok=True)
        log = self.work / f"report-{name}.log"
        status, wall, peak = timed_run([jp, "report", profile, "--format", report_format, *options,
                                        "--max-output-size", MAX_OUTPUT, "--out", out], log, self.timeout)
        label = " ".join(["jp report", report_format, *options])
        self.row(label, wall, peak, out.stat().st_size / 1e6 if out.is_file() else None)
        refusal = commands.first_match(r"would be [0-9.]+ [KMGT]iB \([^)]*\)", log)
        if status == 2 and refusal:
            print(f"  refused, over --max-output-size {MAX_OUTPUT}: {refusal}", flush=True)
        elif status == 124:
            self.fail(f"{label} ran out of time ({self.timeout} s)", log)
        elif status != 0:
            self.fail(f"{label} exited with {status}", log)
        return status == 0

    def reports(self, jp, profile):
        for report_format in FORMATS:
            if not self.report(jp, profile, report_format) and report_format == "folded":
                # Every folded line repeats its path, hundreds of frames deep here: a threshold
                # keeps the lines of the heavy subtrees only.
                self.report(jp, profile, "folded", ["--threshold", FOLDED_THRESHOLD], "folded-threshold")

    def go_pprof(self):
        pprof = self.work / "report.pprof"
        go = shutil.which("go")
        if not pprof.is_file() or not go:
            note("not reading the pprof report (needs it and go)")
            return
        log = self.work / "go-pprof.log"
        status, wall, peak = timed_run([go, "tool", "pprof", "-top", pprof], log, self.timeout)
        self.row("go tool pprof -top", wall, peak, unzipped_size(pprof) / 1e6)
        if status != 0:
            self.fail(f"go tool pprof -top exited with {status}", log)
        return log

    def open_page(self):
        html = self.work / "report.html"
        chromium = shutil.which("chromium")
        if not html.is_file() or not chromium or not shutil.which("npm"):
            note("not opening the HTML report (needs it, chromium and npm)")
            return
        if not (REPORTS_SUITE / "node_modules").is_dir():
            if commands.run_passing(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                                    cwd=REPORTS_SUITE) != 0:
                self.fail("npm ci in integration-tests/reports failed")
                return
        log = self.work / "open-report.log"
        os.environ["CHROMIUM"] = chromium
        status, wall, peak = timed_run(["node", HERE / "open-report.mjs", html], log, self.timeout)
        print(commands.read_text(log), end="", flush=True)
        if wall is not None:
            # /usr/bin/time sees node and what it waited for, not Chromium's own processes.
            print(f"  open-report.mjs in all      {wall:.1f} s, node's peak {peak:.0f} MB", flush=True)
        if status != 0:
            self.fail(f"open-report.mjs exited with {status}")

    def run(self):
        if len(sys.argv) > 1:
            raise build.SuiteError("usage: compiler-profile.sh (no arguments)")
        jdk = jdks.find_jdk17(with_jmods=False)
        if not jdk:
            raise build.SuiteError("no JDK 17 found (set JAVA_HOME to one)")
        java = jdk / "bin" / "java"
        if commands.run_passing([str(jdk / "bin" / "javac"), "--release", "8", "-Xlint:all", "-Werror",
                                 "-d", str(self.launcher), str(LAUNCHER)]) != 0:
            raise build.SuiteError(f"{LAUNCHER.name} did not compile")
        note(f"fetching kotlin-compiler-embeddable {self.version} and its dependencies")
        jars = fetch_compiler(self.version)
        stdlib = next((jar for jar in jars if jar.name == f"kotlin-stdlib-{self.version}.jar"), None)
        if stdlib is None:
            raise build.SuiteError(f"no kotlin-stdlib-{self.version}.jar among {[jar.name for jar in jars]}")
        note("building jp (cargo build --release -p jp-cli) and the runtime jar")
        jp = build.build_jp()
        runtime = build.build_runtime(self.work, test_classes=False)
        instrumented = self.instrument(jp, jars)

        scratch = self.work / "compile"
        shutil.rmtree(scratch, ignore_errors=True)
        (scratch / "src").mkdir(parents=True)
        sources = []
        for name, text in SOURCES.items():
            sources.append(scratch / "src" / name)
            sources[-1].write_text(text)
        profile = self.work / "compiler.jpprof"
        profile.unlink(missing_ok=True)

        print(f"\nkotlin-compiler-embeddable {self.version}: {len(jars)} jars, "
              f"{sum(jar.stat().st_size for jar in jars) / 1e6:.1f} MB; -Xmx{self.heap}; "
              f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}\n", flush=True)
        print(f"{'step':<34} {'wall s':>9} {'peak MB':>9} {'size MB':>10}", flush=True)
        plain = self.compile("plain", jars, java, stdlib, sources)
        profiled = self.compile("instrumented", [*instrumented, runtime], java, stdlib, sources,
                                [f"-Djp.output={profile}"])
        if all(self.compared):
            compared_jp, compared_runtime = self.compared
            self.compile("instrumented, COMPARED_*", [*self.instrument(compared_jp, jars, "compared"), compared_runtime],
                         java, stdlib, sources, [f"-Djp.output={self.work / 'compared.jpprof'}"])
        if plain and profiled:
            differing = files.differing_files(plain, profiled)
            if differing:
                self.fail(f"the two compiles wrote different files: {', '.join(map(str, differing[:10]))}")
            else:
                print(f"  both compiles wrote the same {len(files.files_under(plain))} files, byte for byte",
                      flush=True)
        if not profile.is_file():
            self.fail(f"no profile at {profile}")
            return self.summary()
        if self.compile_only:
            return self.summary()

        shape = profile_shape(profile)
        self.row("profile", None, None, profile.stat().st_size / 1e6)
        self.reports(jp, profile)
        pprof_log = self.go_pprof()
        print(f"\nprofile: {shape['contexts']} contexts, {shape['frames']} frames, {shape['groups']} thread "
              f"group{'' if shape['groups'] == 1 else 's'}; depth {shape['mean depth']:.1f} on average, "
              f"{shape['depth']} at most", flush=True)
        if pprof_log:
            lines = commands.read_text(pprof_log).splitlines()
            head = next((at for at, line in enumerate(lines) if line.split()[:2] == ["flat", "flat%"]), 0)
            print("go tool pprof -top, its first rows:", flush=True)
            print("\n".join(line[:150] for line in lines[head:head + 6]), flush=True)
        print(flush=True)
        self.open_page()
        return self.summary()

    def summary(self):
        if self.failures:
            print(f"\n{len(self.failures)} failed: " + "; ".join(self.failures), flush=True)
            return 1
        return 0


if __name__ == "__main__":
    build.main(PROGRAM, lambda: Bench().run())
