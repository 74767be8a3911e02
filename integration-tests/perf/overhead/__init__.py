"""The overhead benchmark's parts that run.py puts together, one module per job:

- `workloads`: the workloads, as data (name and driver class).
- `settings`: the command line and the PERF_* variables, checked; the JP variants' specs.
- `configurations`: what each configuration (baseline, JP variant, other profiler) adds to a run.
- `results`: one run's outcome read from its driver's output, the checksums checked, the times kept.
- `tables`: the two tables of slowdown ratios.

Standard library only; jptest (integration-tests/lib) must be on sys.path.
"""
