"""Prints one line per test of JUnit XML reports: `class<TAB>test<TAB>status`, sorted.

Status is passed, failed (failure or error) or skipped.
    python3 results.py REPORTS_DIR
"""
import pathlib
import sys
import xml.etree.ElementTree as ElementTree


def results(directory):
    lines = set()
    for report in sorted(pathlib.Path(directory).glob("*.xml")):
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            status = "passed"
            if case.find("failure") is not None or case.find("error") is not None:
                status = "failed"
            elif case.find("skipped") is not None:
                status = "skipped"
            lines.add(f"{case.get('classname')}\t{case.get('name')}\t{status}")
    return sorted(lines)


if __name__ == "__main__":
    for line in results(sys.argv[1]):
        print(line)
