"""The summary lines that `jp instrument` and the Gradle plugin's jpInstrument print, read back.

- the CLI: `instrument: N classes rewritten, N reused, ...`
- the plugin: `jp: jpInstrument -> DIR: N rewritten, N reused, ... in N ms`
"""
import re

_CLI = "instrument: "
_PLUGIN = re.compile(r"^jp: jpInstrument -> [^:]*: (.*)$", re.MULTILINE)
_ENGINE_MS = re.compile(r" in ([0-9]+) ms$")
_REWRITTEN = re.compile(r"^([0-9]+) rewritten")


def cli_summary(text):
    """What follows `instrument: ` in the CLI's output TEXT, one line per summary; "" for none."""
    return "\n".join(line[len(_CLI):] for line in text.splitlines() if line.startswith(_CLI))


def plugin_line(text):
    """The first jpInstrument line of a Gradle build's output TEXT, whole; "" for none."""
    match = _PLUGIN.search(text)
    return match.group() if match else ""


def plugin_summary(text):
    """What follows the directory in the first jpInstrument line of a Gradle build's output TEXT;
    "" for none."""
    match = _PLUGIN.search(text)
    return match.group(1) if match else ""


def engine_milliseconds(summary):
    """The engine's time at the end of a plugin SUMMARY (`... in N ms`), or None."""
    match = _ENGINE_MS.search(summary)
    return int(match.group(1)) if match else None


def rewritten(summary):
    """How many classes a plugin SUMMARY (`N rewritten, ...`) says were rewritten, or None."""
    match = _REWRITTEN.match(summary)
    return int(match.group(1)) if match else None
