"""Running the commands a suite checks, with their output in a log file."""
import dataclasses
import os
import re
import subprocess
import threading
import time


# How long a command that outlived its time limit gets, after SIGTERM, before SIGKILL.
GRACE_SECONDS = 60


def run(args, stdout=None, stderr=None, cwd=None, timeout=None, env=None):
    """Runs ARGS with stdin closed, in the environment ENV (this one when None); returns its exit
    status and, with stdout=subprocess.PIPE, its output (else None). After TIMEOUT seconds it gets
    SIGTERM, as from timeout(1), so that a JVM's shutdown hooks still run (a profile is still
    written), and the status is 124."""
    with subprocess.Popen(args, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL, cwd=cwd,
                          env=env) as process:
        try:
            out, _ = process.communicate(timeout=timeout)
            return process.returncode, out
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                out, _ = process.communicate(timeout=GRACE_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                out, _ = process.communicate()
            return 124, out


def run_logged(args, log, cwd=None, timeout=None, append=False, env=None):
    """Runs ARGS with stdout and stderr into the file LOG; returns the exit status (see run)."""
    with open(log, "ab" if append else "wb") as out:
        return run(args, out, subprocess.STDOUT, cwd, timeout, env)[0]


def run_split(args, stdout, stderr, timeout=None):
    """Runs ARGS with stdout into the file STDOUT and stderr into STDERR; returns the exit status
    (see run)."""
    with open(stdout, "wb") as out, open(stderr, "wb") as err:
        return run(args, out, err, timeout=timeout)[0]


@dataclasses.dataclass(frozen=True)
class Measured:
    status: int  # the exit status, 124 after the time limit (see run)
    peak_rss_kb: int  # the process's peak resident set size (its own, not its children's)
    cpu_seconds: float  # the process's user and system CPU time, all its threads


def run_measured(args, stdout, stderr=None, cwd=None, timeout=None):
    """Runs ARGS as run does, with stdout into the file STDOUT and stderr into the file STDERR (into
    STDOUT when None); returns its Measured exit status, peak memory and CPU time. The process is
    reaped with wait4, the one call that gives a child's own resource usage."""
    with open(stdout, "wb") as out, open(stderr or os.devnull, "wb") as err:
        process = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT if stderr is None else err,
                                   stdin=subprocess.DEVNULL, cwd=cwd)
        timed_out = threading.Event()

        def stop():
            timed_out.set()
            process.terminate()
            killer.start()

        killer = threading.Timer(GRACE_SECONDS, process.kill)
        stopper = threading.Timer(timeout, stop) if timeout else None
        if stopper:
            stopper.start()
        try:
            _, wait_status, usage = os.wait4(process.pid, 0)
        finally:
            for timer in (stopper, killer):
                if timer and timer.is_alive():
                    timer.cancel()
        process.returncode = os.waitstatus_to_exitcode(wait_status)
    # ru_maxrss is in kilobytes on Linux.
    return Measured(124 if timed_out.is_set() else process.returncode, usage.ru_maxrss,
                    usage.ru_utime + usage.ru_stime)


def start_logged(args, log, cwd=None):
    """Starts ARGS with stdin closed and stdout and stderr into the file LOG; returns the running
    process, whose wait() gives the exit status."""
    with open(log, "wb") as out:
        return subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd)


def wait_for_line(path, line, process, timeout):
    """Whether the file PATH, the log of the running PROCESS, holds the line LINE within TIMEOUT
    seconds; False at once when PROCESS ends without it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if line in read_text(path).splitlines():
            return True
        if process.poll() is not None:
            return line in read_text(path).splitlines()
        time.sleep(0.05)
    return False


def output(args, timeout=None):
    """ARGS' stdout and stderr together, as text, and its exit status (see run)."""
    status, out = run(args, subprocess.PIPE, subprocess.STDOUT, timeout=timeout)
    return (out or b"").decode(errors="replace"), status


def stdout_of(args, stderr=None, timeout=None):
    """ARGS' stdout as text, and its exit status (see run); its stderr goes to the open file
    STDERR, or passes through."""
    status, out = run(args, subprocess.PIPE, stderr, timeout=timeout)
    return (out or b"").decode(errors="surrogateescape"), status


def run_timed(args, log, cpu_file, cwd=None):
    """Runs ARGS under /usr/bin/time with stdout and stderr into the file LOG, and its user and
    system CPU seconds into CPU_FILE (read them with cpu_seconds); returns the exit status."""
    return run_logged(["/usr/bin/time", "-o", str(cpu_file), "-f", "%U %S", *args], log, cwd)


def cpu_seconds(cpu_file):
    """The user and system CPU seconds that run_timed wrote, or None. /usr/bin/time puts a line
    `Command exited with non-zero status N` before them when the command failed."""
    lines = read_text(cpu_file).split("\n")
    words = next((line.split() for line in reversed(lines) if line.strip()), [])
    try:
        user, system = map(float, words)
    except ValueError:
        return None
    return user, system


def run_passing(args, cwd=None):
    """Runs ARGS with its output passing through; returns the exit status."""
    return run(args, cwd=cwd)[0]


def read_text(path):
    """A log's text (empty when the file is missing), undecodable bytes replaced."""
    try:
        with open(path, "rb") as file:
            return file.read().decode(errors="replace")
    except FileNotFoundError:
        return ""


def found(pattern, path):
    """Whether a line of the file at PATH matches the regular expression PATTERN."""
    return re.search(pattern, read_text(path), re.MULTILINE) is not None


def first_match(pattern, path):
    """The first text of the file at PATH that PATTERN matches, or ""."""
    match = re.search(pattern, read_text(path), re.MULTILINE)
    return match.group() if match else ""


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

    def milliseconds(self):
        return int((time.monotonic() - self.start) * 1000)
