"""The workloads: a driver class in src/perf/ each, run with the libraries from pom.xml; and the
test suites: a published library's own tests, run with the JUnit Platform console launcher."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class Workload:
    name: str
    main_class: str


@dataclasses.dataclass(frozen=True)
class Suite:
    """A published library's tests (jptest.published_suites): NAME on the command line, the LIBRARY
    of integration-tests/testsuites/libs whose main jar the JP variants instrument, and the test
    classes --quick runs, a regular expression over their names."""
    name: str
    library: str
    quick_classes: str


WORKLOADS = (
    Workload("h2", "perf.H2Workload"),
    Workload("lucene", "perf.LuceneWorkload"),
    Workload("ecj", "perf.EcjWorkload"),
)
BY_NAME = {workload.name: workload for workload in WORKLOADS}
# --quick runs the tests of the top-level package only (StringUtils, ArrayUtils, ...: 4,041 of
# 11,508 tests), leaving out the time package's sweeps over every locale and time zone.
SUITES = (Suite("lang3-tests", "commons-lang3", r"^org\.apache\.commons\.lang3\.[^.]*Test$"),)
SUITES_BY_NAME = {suite.name: suite for suite in SUITES}
