"""Reading a Gradle build's console output (`--console=plain`): the outcome Gradle gives a task, and
the line JP's plugin logs for an instrument task."""
import re


def has_outcome(log, task, outcome):
    """Whether the log text LOG says the task TASK (`jpInstrument`, `core:jpProfileTest`) was
    OUTCOME (UP-TO-DATE, FROM-CACHE, SKIPPED...), as Gradle 4 (`:task OUTCOME`) or a later Gradle
    (`> Task :task OUTCOME`) prints it."""
    line = re.compile("^(> Task )?:" + re.escape(f"{task} {outcome}") + "$", re.MULTILINE)
    return line.search(log) is not None


def instrument_line(log, task):
    """The first line the plugin logged in LOG for the instrument task TASK,
    `jp: jpInstrument -> DIR: N rewritten, N reused, ...`, or ""."""
    match = re.search("^" + re.escape(f"jp: {task} -> ") + ".*$", log, re.MULTILINE)
    return match.group() if match else ""


def counts(line):
    """The counts of an instrument line, what follows its last `: ` (`N rewritten, N reused, ...`)."""
    return re.sub(".*: ", "", line)
