"""The gradle8 suite: the gradle suite's checks on Gradle 8.11.1 (integration-tests/gradle8/gradle,
fetched from Maven Central and cached on first use; see docs/gradle-8-harness.md), less those that
need Debian's Gradle or a daemon, plus the checks of a modern Gradle (step 9 of
integration-tests/lib/jptest/gradle_suite.py)."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from jptest import build, gradle_suite  # noqa: E402

if __name__ == "__main__":
    build.main("gradle8.py", lambda: gradle_suite.suite("gradle8"))
