"""The line `jp roundtrip` ends with: `roundtrip: N classes, N identical, N differ, N failed`."""
import collections
import re

Summary = collections.namedtuple("Summary", "classes identical differ failed")
_SUMMARY = re.compile(r"^roundtrip: ([0-9]+) classes, ([0-9]+) identical, ([0-9]+) differ, ([0-9]+) failed$")


def summary(line):
    """The counts of LINE, or None when LINE is no summary line."""
    match = _SUMMARY.match(line)
    return Summary(*map(int, match.groups())) if match else None


def all_identical(line):
    """Whether LINE says that classes were read and every one came back byte for byte."""
    counts = summary(line)
    return counts is not None and counts.classes > 0 and counts.differ == 0 and counts.failed == 0
