"""The gradle suite: the Gradle plugin in real builds with the `gradle` on PATH (Debian's 4.4.1);
its steps are in integration-tests/lib/jptest/gradle_suite.py."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from jptest import build, gradle_suite  # noqa: E402

if __name__ == "__main__":
    build.main("gradle.py", lambda: gradle_suite.suite("gradle"))
