"""Entry-cost benchmark: what an instrumented method call costs in each of the JVM's execution tiers
(the interpreter, C1 alone, and C2 after both), next to the plain call, for a few call patterns of
EntryCost.java; and the same for other builds of the runtime side by side. See README.md beside this
file.

usage: integration-tests/bench/entry-cost.sh   (ENTRY_RUNS=N interleaved JVM runs, median kept;
ENTRY_RUNTIMES="NAME=JAR ..." other runtime jars to compare; ENTRY_BBA=default|precise)
Exits 0 when it measured, 1 when a run failed, 2 when it could not run.
"""
import os
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "lib"))
from jptest import build, commands, stats  # noqa: E402

PROGRAM = "entry-cost.sh"
SOURCE = HERE / "entry-cost" / "bench" / "EntryCost.java"
PATTERNS = ("leaf", "alternating", "deep")
# Each tier: its JVM options, and the outer calls and rounds per pattern (the interpreter is slow).
TIERS = (
    ("interpreter", ["-Xint"], 20_000, 3),
    # The benchmark's methods interpreted, the runtime's compiled: a program's cold code, whose
    # entries reach the runtime's hot and compiled methods.
    ("interpreted callers", ["-XX:CompileCommand=quiet", "-XX:CompileCommand=exclude,bench.*::*"], 200_000, 3),
    ("C1", ["-XX:TieredStopAtLevel=1"], 2_000_000, 5),
    # C1 as tiered compilation runs it before C2 takes over: with profiling counters in the code.
    ("C1 profiling", ["-XX:TieredStopAtLevel=3"], 2_000_000, 5),
    ("C2", [], 5_000_000, 10),
)


def note(text):
    print(f"{PROGRAM}: {text}", file=sys.stderr, flush=True)


def variants(work, runtime):
    """(name, class path) of the plain classes, the instrumented ones with this checkout's runtime,
    and with each runtime jar of ENTRY_RUNTIMES."""
    found = [("plain", str(work / "classes")), ("jp", f"{work / 'instrumented'}:{runtime}")]
    for entry in os.environ.get("ENTRY_RUNTIMES", "").split():
        name, _, jar = entry.partition("=")
        if not name or not pathlib.Path(jar).is_file():
            raise build.SuiteError(f"ENTRY_RUNTIMES: '{entry}' is not NAME=JAR of an existing jar")
        found.append((name, f"{work / 'instrumented'}:{jar}"))
    return found


def run_once(work, tier, classpath, index):
    """{pattern: ns per outer call} of one JVM run in TIER, or None when it failed."""
    name, options, calls, rounds = tier
    out = work / f"run-{index}.out"
    status = commands.run_split(["java", *options, f"-Djp.output={work / 'profile.jpprof'}", "-cp", classpath,
                                 "bench.EntryCost", str(calls), str(rounds)], out, work / f"run-{index}.err")
    lines = dict(line.split() for line in commands.read_text(out).splitlines() if line.split()[0] in PATTERNS)
    if status != 0 or set(lines) != set(PATTERNS):
        print(commands.tail(work / f"run-{index}.err", 20), flush=True)
        return None
    return {pattern: float(value) for pattern, value in lines.items()}


def table(tier_name, names, times):
    """The table of one tier: ns per outer call, median of the runs, and the ratio to plain."""
    print(f"\n{tier_name}: ns per outer call (fastest round of each JVM, median of the JVMs); x: against plain")
    print(f"{'pattern':12}" + "".join(f"{name:>20}" for name in names))
    ratios = {name: [] for name in names}
    for pattern in PATTERNS:
        cells = []
        for name in names:
            value = stats.median(times[(name, pattern)])
            ratio = stats.ratio(value, stats.median(times[("plain", pattern)]))
            ratios[name].append(ratio)
            cells.append(f"{value:10.2f} ({ratio:6.2f}x)" if ratio else f"{value:10.2f}")
        print(f"{pattern:12}" + "".join(f"{cell:>20}" for cell in cells))
    print(f"{'geomean':12}" + "".join(f"{stats.geometric_mean(ratios[name]):>19.2f}x" for name in names))


def measure(work):
    jp = build.build_jp()
    runtime = build.build_runtime(work, test_classes=False)
    classes = work / "classes"
    if commands.run_passing(["javac", "--release", "8", "-nowarn", "-d", str(classes), str(SOURCE)]) != 0:
        raise build.SuiteError("EntryCost.java did not compile")
    bba = os.environ.get("ENTRY_BBA", "precise")
    if commands.run_passing([str(jp), "instrument", "--bba", bba, "--out", str(work / "instrumented"),
                             str(classes)]) != 0:
        raise build.SuiteError("jp instrument failed")
    runs = int(os.environ.get("ENTRY_RUNS", "3"))
    found = variants(work, runtime)
    note(f"{runs} interleaved run(s) of each tier and variant; --bba {bba}; load average "
         f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    status = 0
    for tier in TIERS:
        times = {}
        for index in range(runs):
            for name, classpath in found:
                result = run_once(work, tier, classpath, index)
                if result is None:
                    note(f"{tier[0]}: {name} failed")
                    status = 1
                    continue
                for pattern, value in result.items():
                    times.setdefault((name, pattern), []).append(value)
        if all((name, pattern) in times for name, _ in found for pattern in PATTERNS):
            table(tier[0], [name for name, _ in found], times)
    return status


if __name__ == "__main__":
    build.main(PROGRAM, lambda: build.in_scratch(PROGRAM, "jp-entry-cost.", measure))
