"""Reading a Gradle build's console output (`--console=plain`): the outcome Gradle gives a task.
(The plugin's own lines are jptest.jp_lines'.)"""
import re


def has_outcome(log, task, outcome):
    """Whether the log text LOG says the task TASK (`jpInstrument`, `core:jpProfileTest`) was
    OUTCOME (UP-TO-DATE, FROM-CACHE, SKIPPED...), as Gradle 4 (`:task OUTCOME`) or a later Gradle
    (`> Task :task OUTCOME`) prints it."""
    line = re.compile("^(> Task )?:" + re.escape(f"{task} {outcome}") + "$", re.MULTILINE)
    return line.search(log) is not None
