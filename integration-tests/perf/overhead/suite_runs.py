"""A test suite's run read from the JUnit Platform console launcher's output: the summary it prints
at the end (`[      4041 tests successful      ]`, ...), and the Run it makes."""
import re

from overhead import results

_SUMMARY_LINE = re.compile(r"^\[ *([0-9]+) tests (found|skipped|started|aborted|successful|failed) *\]$",
                           re.MULTILINE)
COUNTS = ("found", "skipped", "started", "aborted", "successful", "failed")


def summary(output):
    """The test counts of the summary in OUTPUT, by name (COUNTS), or None when it printed no whole
    summary: the launcher did not get to the end."""
    counts = {name: int(number) for number, name in _SUMMARY_LINE.findall(output)}
    return counts if set(counts) == set(COUNTS) else None


def read_run(status, wall_ms, output):
    """The Run of a console launcher that exited with STATUS after WALL_MS and printed OUTPUT: it
    passed when it printed its summary and exited 0, or 1 as it does when a test failed (which test
    passed, failed and was skipped is compared with the baseline's, not judged here)."""
    ok = status in (0, 1) and summary(output) is not None
    return results.Run(ok, status == results.TIMED_OUT, "", wall_ms, None)
