"""Running the commands a suite checks, with their output in a log file."""
import subprocess
import time


def run_logged(args, log, cwd=None, timeout=None, env=None, append=False):
    """Runs ARGS with stdout and stderr into the file LOG; returns the exit status.

    A command that outlives TIMEOUT seconds is killed and returns 124, as timeout(1) does.
    """
    with open(log, "ab" if append else "wb") as out:
        try:
            return subprocess.run(args, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  cwd=cwd, timeout=timeout, env=env, check=False).returncode
        except subprocess.TimeoutExpired:
            return 124


def run_split(args, stdout, stderr, cwd=None, timeout=None):
    """Runs ARGS with stdout into the file STDOUT and stderr into STDERR; returns the exit status
    (124 after TIMEOUT seconds)."""
    with open(stdout, "wb") as out, open(stderr, "wb") as err:
        try:
            return subprocess.run(args, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=cwd,
                                  timeout=timeout, check=False).returncode
        except subprocess.TimeoutExpired:
            return 124


def output(args, cwd=None, timeout=None):
    """ARGS' stdout and stderr together, and its exit status (124 after TIMEOUT seconds)."""
    try:
        done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, cwd=cwd, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as expired:
        return (expired.output or b"").decode(errors="replace"), 124
    return done.stdout.decode(errors="replace"), done.returncode


def read_text(path):
    """A log's text (empty when the file is missing), undecodable bytes replaced."""
    try:
        with open(path, "rb") as file:
            return file.read().decode(errors="replace")
    except FileNotFoundError:
        return ""


def tail(path, lines):
    """The last LINES lines of the file at PATH."""
    return "\n".join(read_text(path).splitlines()[-lines:])


class Stopwatch:
    """Seconds since it started, with one decimal, as the suites print them."""

    def __init__(self):
        self.start = time.monotonic()

    def __str__(self):
        tenths = int((time.monotonic() - self.start) * 10)
        return f"{tenths // 10}.{tenths % 10}"

    def whole_seconds(self):
        return int(time.monotonic() - self.start)


def run_passing(args, cwd=None):
    """Runs ARGS with its output passing through; returns the exit status."""
    return subprocess.run(args, cwd=cwd, stdin=subprocess.DEVNULL, check=False).returncode


def stdout_of(args, stderr=None, timeout=None):
    """ARGS' stdout as text, and its exit status (124 after TIMEOUT seconds); its stderr goes to the
    open file STDERR, or passes through."""
    try:
        done = subprocess.run(args, stdout=subprocess.PIPE, stderr=stderr, stdin=subprocess.DEVNULL,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired as expired:
        return (expired.stdout or b"").decode(errors="surrogateescape"), 124
    return done.stdout.decode(errors="surrogateescape"), done.returncode
