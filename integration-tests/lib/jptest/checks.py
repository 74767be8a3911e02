"""The lines a suite prints, one per check: `PASS text`, `FAIL text`, `SKIP text`.

run.sh shows them and counts suites by exit status; the format is integration-tests/suites/README.md's.
"""
import sys


def indented(text, limit=None, prefix="    "):
    """TEXT's first LIMIT lines (all when None), each behind PREFIX, as one string."""
    lines = text.splitlines()
    if limit is not None:
        lines = lines[:limit]
    return "".join(f"{prefix}{line}\n" for line in lines)


class Checks:
    """Counts the checks of one suite and prints their lines as they are made."""

    def __init__(self, out=None):
        self.out = out or sys.stdout
        self.passed = 0
        self.failed = 0

    def _print(self, line):
        print(line, file=self.out, flush=True)

    def info(self, text):
        """A line that is no check (TIME, INFO and progress lines)."""
        self._print(text)

    def pass_(self, text):
        self.passed += 1
        self._print(f"PASS {text}")

    def fail(self, text, details=""):
        """A failed check; DETAILS (already indented) follow its line."""
        self.failed += 1
        self._print(f"FAIL {text}")
        if details:
            self.out.write(details)
            self.out.flush()

    def skip(self, text):
        self._print(f"SKIP {text}")

    def check(self, ok, passed, failed, details=""):
        """PASS with the text PASSED when OK, else FAIL with FAILED and DETAILS; returns OK."""
        if ok:
            self.pass_(passed)
        else:
            self.fail(failed, details)
        return ok

    def summary(self, program):
        """The suite's last line, `PROGRAM: N checks passed, N failed` (not run.sh's bare count)."""
        self._print(f"{program}: {self.passed} checks passed, {self.failed} failed")

    def status(self):
        """The suite's exit status: 1 when a check failed."""
        return 1 if self.failed else 0


class NamedChecks(Checks):
    """Checks whose lines name the suite after the word, as the suites first written in bash print
    them: `PASS maven-plugin demo: ...`, `FAIL cross release jar: ...`."""

    def __init__(self, suite, out=None):
        super().__init__(out)
        self.suite = suite

    def pass_(self, text):
        super().pass_(f"{self.suite} {text}")

    def fail(self, text, details=""):
        super().fail(f"{self.suite} {text}", details)

    def skip(self, text):
        super().skip(f"{self.suite} {text}")
