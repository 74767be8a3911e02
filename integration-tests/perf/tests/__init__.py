"""Unit tests of the overhead benchmark's package (overhead/), run with
`python3 -m unittest discover -s integration-tests/perf/tests -t integration-tests/perf`."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "lib"))
