"""Reading JUnit XML reports: Surefire's `TEST-*.xml`, Gradle's, and the console launcher's:
each test's status (`results`) and their counts by status (`results_counts`), the tests' ids
(`test_ids`), and the counts run and broken (`counts`)."""
import pathlib
import xml.etree.ElementTree as ElementTree


def _roots(directory, pattern):
    for report in sorted(pathlib.Path(directory).glob(pattern)):
        yield ElementTree.parse(report).getroot()


def status(case):
    """A testcase's status: passed, failed (a failure or an error) or skipped."""
    if case.find("failure") is not None or case.find("error") is not None:
        return "failed"
    if case.find("skipped") is not None:
        return "skipped"
    return "passed"


def results(directory):
    """Every test of DIRECTORY's `*.xml` reports as `class<TAB>test<TAB>status`, sorted, once."""
    lines = {f"{case.get('classname')}\t{case.get('name')}\t{status(case)}"
             for root in _roots(directory, "*.xml") for case in root.iter("testcase")}
    return sorted(lines)


def results_counts(results):
    """`N passed, N failed, N skipped` of RESULTS, lines as results() gives them."""
    statuses = [line.split("\t")[2] for line in results]
    return ", ".join(f"{statuses.count(status)} {status}" for status in ("passed", "failed", "skipped"))


def test_ids(directory):
    """Every test of DIRECTORY's `TEST-*.xml` reports as `class#test`, sorted, once."""
    return sorted({f"{case.get('classname')}#{case.get('name')}"
                   for root in _roots(directory, "TEST-*.xml") for case in root.iter("testcase")})


def counts(directory):
    """The tests run and the tests failed or in error, summed over the suites of DIRECTORY's
    `TEST-*.xml` reports (0 0 when there are none)."""
    run = broken = 0
    for root in _roots(directory, "TEST-*.xml"):
        for suite in root.iter("testsuite"):
            run += int(suite.get("tests", 0))
            broken += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
    return run, broken
