"""The tables of slowdown ratios against the baseline: the workloads' whole JVM wall time and
measured rounds only, and the test suites' wall time. README.md beside run.py explains how to read
them."""
from jptest import stats

WALL = "Whole JVM wall time (start-up, warm-up round, measured rounds), median of {runs}: slowdown against the baseline"
STEADY = "Measured rounds only (after the warm-up round, timed inside the JVM), median of {runs}"
SUITE = "Test suite wall time (the whole JVM: start-up, every test, the profile written), median of {runs}: " \
        "slowdown against the baseline"
CPU = "Whole JVM CPU time (user and system, every thread: the JIT's and the collector's too), median of {runs}: " \
      "slowdown against the baseline; steadier than wall time on a loaded machine"
HEAP = "Peak Java heap after a collection (-Xlog:gc), median of {runs}: the baseline's MB, and the others' " \
       "ratio to it"
OPTIONS = "{what}, median of {runs}: what each option costs, the variant's time over the `{base}` variant's it " \
          "extends"
RSS = "Peak resident set size of the whole JVM, median of {runs}: the baseline's MB, and the others' ratio to it"


def _row(first, baseline, noise, cells, width):
    return f"{first:<{width}} {baseline:>10} {noise:>7}" + "".join(f" {cell:>14}" for cell in cells)


def _seconds(milliseconds):
    return f"{milliseconds / 1000:.2f}"


def _megabytes(megabytes):
    return f"{megabytes:.0f}"


def _ratio_cell(ratio, bound):
    return "n/a" if ratio is None else f"{'>' if bound else ''}{ratio:.2f}x"


def table(title, times, timed_out, workloads, configurations, bounds_shown, unit=("baseline s", _seconds)):
    """The lines of one table: TITLE, then a row per workload (its baseline's median, its noise, and
    each other configuration's median over the baseline's), then the geometric means of the ratios.
    TIMES maps (workload, configuration) to values: ms, unless UNIT (the baseline column's heading,
    and how it shows a value) says otherwise; TIMED_OUT holds the pairs stopped at their time limit,
    shown as lower bounds (`>`) when BOUNDS_SHOWN, else as `(timed out)`."""
    heading, shown = unit
    others = configurations[1:]
    width = max(len("workload"), *map(len, workloads))
    lines = ["", title, _row("workload", heading, "noise", others, width)]
    ratios = {configuration: [] for configuration in others}
    bounded = set()
    for workload in workloads:
        base_times = times.get((workload, configurations[0]), [])
        base = stats.median(base_times)
        noise = stats.spread(base_times)
        cells = []
        for configuration in others:
            if (workload, configuration) in timed_out:
                if not bounds_shown:
                    cells.append("(timed out)")
                    continue
                bounded.add(configuration)
            ratio = stats.ratio(stats.median(times.get((workload, configuration), [])), base)
            cells.append(_ratio_cell(ratio, (workload, configuration) in timed_out))
            if ratio is not None:
                ratios[configuration].append(ratio)
        lines.append(_row(workload, "n/a" if not base or base <= 0 else shown(base),
                          "-" if noise is None else f"{100 * noise:.0f}%", cells, width))
    means = [_ratio_cell(stats.geometric_mean(ratios[configuration]), configuration in bounded)
             if len(ratios[configuration]) == len(workloads) else "n/a" for configuration in others]
    lines.append(_row("geomean", "", "", means, width))
    return lines


def tables(times, workloads, configurations, runs):
    """The workload time tables' lines, from the Times of WORKLOADS in CONFIGURATIONS (names; the
    baseline first)."""
    return [*table(WALL.format(runs=runs), times.wall, times.timed_out, workloads, configurations, True),
            *table(CPU.format(runs=runs), times.cpu, times.timed_out, workloads, configurations, False),
            *table(STEADY.format(runs=runs), times.steady, times.timed_out, workloads, configurations, False)]


def suite_table(times, suites, configurations, runs):
    """The test suites' tables (wall and CPU time), from the Times of SUITES in CONFIGURATIONS (names;
    the baseline first)."""
    return [*table(SUITE.format(runs=runs), times.wall, times.timed_out, suites, configurations, True),
            *table(CPU.format(runs=runs), times.cpu, times.timed_out, suites, configurations, False)]


def memory_tables(times, names, configurations, runs):
    """The peak heap and peak RSS tables of the workloads or suites NAMES, from their Times in
    CONFIGURATIONS (names; the baseline first). A run stopped at its time limit has no peak."""
    megabytes = ("baseline MB", _megabytes)
    return [*table(HEAP.format(runs=runs), times.heap, times.timed_out, names, configurations, False, megabytes),
            *table(RSS.format(runs=runs), times.rss, times.timed_out, names, configurations, False, megabytes)]


def option_tables(times, names, groups, runs):
    """For each (base, extending) of GROUPS (settings.extended): the wall and CPU times of the
    workloads or suites NAMES in the variants EXTENDING, over their medians in the variant BASE."""
    lines = []
    for base, extending in groups:
        unit = (f"{base} s", _seconds)
        for what, values in (("Wall time", times.wall), ("CPU time", times.cpu)):
            title = OPTIONS.format(what=what, runs=runs, base=base)
            lines += table(title, values, times.timed_out, names, [base, *extending], False, unit)
    return lines
