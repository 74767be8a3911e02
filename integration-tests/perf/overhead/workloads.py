"""The workloads: a driver class in src/perf/ each, run with the libraries from pom.xml."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class Workload:
    name: str
    main_class: str


WORKLOADS = (
    Workload("h2", "perf.H2Workload"),
    Workload("lucene", "perf.LuceneWorkload"),
    Workload("ecj", "perf.EcjWorkload"),
)
BY_NAME = {workload.name: workload for workload in WORKLOADS}
