"""What the runs gave: one run's outcome from its driver's output, the checksums compared with the
baseline's, and the times kept for the tables."""
import collections
import dataclasses
import re

# The driver's last line: `NAME checksum=C rounds=N warmup_ms=W time_ms=T`.
_DRIVER_LINE = re.compile(r"^[a-z0-9]* checksum=([^ ]*) .* time_ms=([0-9]*)$", re.MULTILINE)
TIMED_OUT = 124


@dataclasses.dataclass(frozen=True)
class Run:
    ok: bool
    timed_out: bool
    checksum: str
    wall_ms: int  # the whole JVM, from launch to exit
    steady_ms: int  # the measured rounds, timed inside the JVM; None without a driver line
    peak_heap_mb: float = None  # jptest.gc_log.peak_heap_mb; None when no collection ran
    peak_rss_mb: float = None
    cpu_ms: float = None  # user and system CPU time of the whole JVM, every thread


def read_run(status, wall_ms, stdout):
    """The Run of a JVM that exited with STATUS after WALL_MS and printed STDOUT: it passed when it
    exited 0 and printed its driver line."""
    match = _DRIVER_LINE.search(stdout)
    checksum, steady = (match.group(1), match.group(2)) if match else ("", "")
    steady_ms = int(steady) if steady else None
    return Run(status == 0 and steady_ms is not None, status == TIMED_OUT, checksum, wall_ms, steady_ms)


class Checksums:
    """One workload's checksums, or one test suite's test results: the baseline's first passing run
    sets what every run must give. Messages call a value WHAT and show it as SHOWN(value)."""

    def __init__(self, what="checksum", shown=str):
        self.what = what
        self.shown = shown
        self.expected = None

    def mismatch(self, configuration, checksum):
        """Why CHECKSUM, of a passing run of CONFIGURATION, is wrong, or None when it is right."""
        if configuration == "baseline" and self.expected is None:
            self.expected = checksum
        if checksum == self.expected:
            return None
        expected = "(none)" if self.expected is None else self.shown(self.expected)
        return f"{self.what} {self.shown(checksum)} differs from the baseline's {expected}"


class Times:
    """The wall, steady and CPU times (ms) and peak memory (MB) of every (workload, configuration),
    and which timed out."""

    def __init__(self):
        self.wall = collections.defaultdict(list)
        self.steady = collections.defaultdict(list)
        self.heap = collections.defaultdict(list)
        self.rss = collections.defaultdict(list)
        self.cpu = collections.defaultdict(list)
        self.timed_out = set()

    def add(self, workload, configuration, run):
        self.wall[workload, configuration].append(run.wall_ms)
        self.steady[workload, configuration].append(run.steady_ms)
        if run.peak_heap_mb is not None:
            self.heap[workload, configuration].append(run.peak_heap_mb)
        if run.peak_rss_mb is not None:
            self.rss[workload, configuration].append(run.peak_rss_mb)
        if run.cpu_ms is not None:
            self.cpu[workload, configuration].append(run.cpu_ms)

    def add_bound(self, workload, configuration, run):
        """A run stopped at its time limit: its wall time is a lower bound, it has no steady time."""
        self.timed_out.add((workload, configuration))
        self.wall[workload, configuration].append(run.wall_ms)
