"""How much heap a JVM needed: the peak of its heap after each collection, read from its GC log (the
live data, garbage excluded as far as each collection went). The benchmarks print it beside the
process's peak resident set size (commands.run_measured)."""
import re

# `[1.234s][info][gc] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 51M->3M(1024M) 2.345ms`. G1's
# Remark and Cleanup pauses are left out: they copy nothing out, so their "after" is the occupancy,
# garbage included, at a moment of the concurrent cycle.
_COLLECTION = re.compile(r"\bGC\(\d+\) Pause (?!Remark\b|Cleanup\b).*?(\d+)([KMG])->(\d+)([KMG])\(\d+[KMG]\)")
_MB = {"K": 1 / 1024, "M": 1, "G": 1024}


def option(path):
    """The JVM option that writes the collections' heap sizes into the file PATH."""
    return f"-Xlog:gc:file={path}"


def peak_heap_mb(log_text):
    """The largest heap occupancy after a collection in the GC log LOG_TEXT, in MB; None when no
    collection ran (the run never filled its young generation)."""
    after = [int(size) * _MB[unit] for _, _, size, unit in _COLLECTION.findall(log_text)]
    return max(after) if after else None
