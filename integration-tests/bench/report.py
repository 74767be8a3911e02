"""Report benchmark: how long `jp report` takes on a generated profile of many contexts (1,000,000
by default), for each format, and how large each report is; then how long Chromium takes to open the
HTML report until its call tree and flame graph are drawn. See README.md beside this file.

usage: integration-tests/bench/report.sh [CONTEXTS]   (which runs this file; REPORT_RUNS=N runs per
format, median kept)
Exits 0 when it measured, 1 when a report failed, 2 when it could not run.
"""
import hashlib
import os
import pathlib
import re
import shutil
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "lib"))
from jptest import build, commands, stats  # noqa: E402

PROGRAM = "report.sh"
GENERATOR = HERE / "generate-profile.py"
FORMATS = ("folded", "text", "html", "speedscope", "pprof")
REPORTS_SUITE = build.ROOT / "integration-tests" / "reports"


def note(text):
    print(f"{PROGRAM}: {text}", file=sys.stderr, flush=True)


def positive(text, what):
    if not re.fullmatch(r"[1-9][0-9]*", text):
        raise build.SuiteError(f"{what} must be a positive number, not '{text}'")
    return int(text)


def generated_profile(work, contexts):
    """The generated profile of CONTEXTS contexts, named after the generator's contents too, so that
    a changed generator makes a new profile."""
    digest = hashlib.sha256(GENERATOR.read_bytes()).hexdigest()[:12]
    profile = work / f"generated-{contexts}-{digest}.jpprof"
    if not profile.is_file() or profile.stat().st_size == 0:
        note(f"generating a profile of {contexts} contexts")
        partial = profile.with_name(f"{profile.name}.tmp")
        if commands.run_passing([sys.executable, str(GENERATOR), str(contexts), str(partial)]) != 0:
            raise build.SuiteError("could not generate the profile")
        partial.rename(profile)
    return profile


def time_format(jp, profile, report_format, out, runs):
    """The wall seconds of RUNS `jp report --format REPORT_FORMAT` runs into OUT, or None after
    showing jp's errors when one failed."""
    seconds = []
    errors = out.with_name(f"{report_format}.err")
    for _ in range(runs):
        watch = commands.Stopwatch()
        # The folded report of a million contexts is some 1.3 GB, more than jp report's default limit.
        with open(errors, "wb") as err:
            status = commands.run([str(jp), "report", str(profile), "--format", report_format,
                                   "--max-output-size", "8G", "--out", str(out)], stderr=err)[0]
        if status != 0:
            note(f"jp report --format {report_format} failed:")
            print(commands.read_text(errors), end="", file=sys.stderr, flush=True)
            return None
        seconds.append(watch.milliseconds() / 1000)
    return seconds


def bench():
    if len(sys.argv) > 2:
        raise build.SuiteError("usage: report.sh [CONTEXTS]")
    contexts = positive(sys.argv[1] if len(sys.argv) > 1 else "1000000", "CONTEXTS")
    runs = positive(os.environ.get("REPORT_RUNS") or "3", "REPORT_RUNS")
    work = build.target_dir() / "bench" / "report"
    work.mkdir(parents=True, exist_ok=True)
    note("building jp (cargo build --release -p jp-cli)")
    jp = build.build_jp()
    profile = generated_profile(work, contexts)

    print(f"profile: {contexts} contexts, {profile.stat().st_size // 1000000} MB\n")
    print(f"{'format':<12} {'median s':>10} {'min s':>10} {'size MB':>12}", flush=True)
    status = 0
    for report_format in FORMATS:
        out = work / f"report.{report_format}"
        seconds = time_format(jp, profile, report_format, out, runs)
        if seconds is None:
            status = 1
            continue
        print(f"{report_format:<12} {stats.median(seconds):>10.3f} {min(seconds):>10.3f} "
              f"{out.stat().st_size / 1e6:>12.1f}", flush=True)

    # Opening the page: Chromium from Debian, through the reports suite's playwright-core.
    html = work / "report.html"
    chromium = shutil.which("chromium")
    if html.is_file() and html.stat().st_size > 0 and chromium and (REPORTS_SUITE / "node_modules").is_dir():
        print(flush=True)
        os.environ["CHROMIUM"] = chromium
        if commands.run_passing(["node", str(HERE / "open-report.mjs"), str(html)]) != 0:
            status = 1
    else:
        note("not opening the HTML report (needs chromium and integration-tests/reports/node_modules)")
    return status


if __name__ == "__main__":
    build.main(PROGRAM, bench)
