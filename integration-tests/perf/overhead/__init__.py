"""The overhead benchmark's parts that run.py puts together, one module per job:

- `workloads`: the workloads, as data (name and driver class), and the test suites (name, library,
  the test classes --quick runs).
- `settings`: the command line and the PERF_* variables, checked; the JP variants' specs.
- `configurations`: what each configuration (baseline, JP variant, other profiler) adds to a run.
- `results`: one run's outcome read from its driver's output, the checksums (or a test suite's
  results) checked, the times kept.
- `suite_runs`: a test suite's run read from the console launcher's summary.
- `tables`: the three tables of slowdown ratios.

Standard library only; jptest (integration-tests/lib) must be on sys.path.
"""
