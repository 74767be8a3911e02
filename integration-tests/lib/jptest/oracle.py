"""The counting oracle of integration-tests/oracle: building its JVMTI agent, running a program
under it, and what the test programs say it must count (their `// expect:` lines, the papers'
numbers).

As a program, for a run by hand:
    python3 -m jptest.oracle build [OUTDIR]      builds the agent (default: target/oracle), prints its path
    python3 -m jptest.oracle run CLASS CLASSES OUTPREFIX [ARGS...]
        runs CLASS uninstrumented under the agent; writes OUTPREFIX.calls.folded,
        OUTPREFIX.bytecodes.folded and OUTPREFIX.lines; the program's output passes through. Environment:
        ORACLE_INCLUDE  class-name prefixes to select, `;`-separated (default: CLASS's package)
        ORACLE_OPTIONS  more agent options, `,`-separated (`metrics=calls`, `init=off`, `verbose`)
        ORACLE_LIB      a prebuilt agent (default: built as by `build`)
        JAVA            the java launcher (default: $JAVA_HOME/bin/java, else java on the PATH)
        Exit status: the program's, or 3 when the oracle warned (its counts are then not to be
        trusted).
"""
import contextlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from jptest import build, folded

SOURCE = build.ROOT / "integration-tests" / "oracle" / "jp_oracle.c"
PROGRAMS = build.ROOT / "integration-tests" / "programs"
METRICS = ("calls", "bytecodes")
# The status of a run whose counts cannot be trusted: the agent printed a warning.
WARNED = 3
_WARNING = re.compile(r"^jp-oracle: warning", re.MULTILINE)
_EXPECT = "// expect: "


class OracleError(Exception):
    """The agent could not be built, or a program cannot be run under it."""


def build_agent(out=None):
    """Compiles the agent into OUT/libjp_oracle.so (default: target/oracle under the repository),
    again only when jp_oracle.c is newer; returns its path. The JVMTI headers are those of
    ${JAVA_HOME:-Debian's JDK 17}; gcc's messages pass through to stderr."""
    out = pathlib.Path(out or build.ROOT / "target" / "oracle")
    jdk = pathlib.Path(os.environ.get("JAVA_HOME") or "/usr/lib/jvm/java-17-openjdk-amd64")
    if not (jdk / "include" / "jvmti.h").is_file():
        raise OracleError(f"no JVMTI headers in {jdk}/include (set JAVA_HOME to a JDK)")
    out.mkdir(parents=True, exist_ok=True)
    lib = out / "libjp_oracle.so"
    if lib.is_file() and SOURCE.stat().st_mtime <= lib.stat().st_mtime:
        return lib
    partial = out / "libjp_oracle.so.tmp"
    args = [os.environ.get("CC") or "gcc", "-O2", "-g", "-Wall", "-Wextra", "-Werror", "-std=gnu11", "-shared",
            "-fPIC", f"-I{jdk}/include", f"-I{jdk}/include/linux", "-o", str(partial), str(SOURCE), "-lpthread"]
    if subprocess.run(args, stdout=sys.stderr, stdin=subprocess.DEVNULL, check=False).returncode != 0:
        raise OracleError(f"{args[0]} could not compile {SOURCE}")
    partial.replace(lib)
    return lib


def agent_options(main, out, include=None, options=""):
    """The agent string for a run of MAIN writing OUT.*.folded: INCLUDE, or MAIN's package, selected."""
    if not include:
        package, dot, _ = main.rpartition(".")
        if not dot:
            raise OracleError(f"{main} is in the unnamed package; set ORACLE_INCLUDE")
        include = f"{package}."
    return f"include={include},out={out}" + (f",{options}" if options else "")


def run(lib, java, main, classes, out, stdout, stderr, args=(), include=None, options=""):
    """Runs MAIN from CLASSES under the agent LIB, its stdout into the file STDOUT (None: it passes
    through) and its stderr into the file STDERR; the oracle writes OUT.calls.folded and OUT.bytecodes.folded. Returns the program's
    exit status, or WARNED when it exited 0 and the agent warned."""
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    for metric in METRICS:
        pathlib.Path(f"{out}.{metric}.folded").unlink(missing_ok=True)
    pathlib.Path(f"{out}.lines").unlink(missing_ok=True)
    pathlib.Path(f"{out}.allocations.folded").unlink(missing_ok=True)
    # -XX:-RewriteFrequentPairs: see fact 5 in jp_oracle.c.
    command = [str(java), "-XX:-RewriteFrequentPairs", f"-agentpath:{lib}={agent_options(main, out, include, options)}",
               "-cp", str(classes), main, *args]
    with contextlib.ExitStack() as files:
        out_file = files.enter_context(open(stdout, "wb")) if stdout else None
        err_file = files.enter_context(open(stderr, "wb"))
        status = subprocess.run(command, stdout=out_file, stderr=err_file, stdin=subprocess.DEVNULL,
                                check=False).returncode
    if status == 0 and warned(pathlib.Path(stderr).read_text(errors="replace")):
        return WARNED
    return status


def warned(stderr):
    """Whether the agent's STDERR text holds a warning line."""
    return bool(_WARNING.search(stderr))


def demo_programs():
    """The names of the programs of integration-tests/programs/demo, in name order."""
    return [path.stem for path in sorted((PROGRAMS / "demo").glob("*.java"))]


def expectations(source_text):
    """The `// expect: CONTEXT metric=N ...` lines of a program's source, as (context, metric, value)."""
    found = []
    for line in source_text.splitlines():
        if _EXPECT not in line:
            continue
        context, *pairs = line.split(_EXPECT, 1)[1].split()
        for pair in pairs:
            metric, _, value = pair.partition("=")
            found.append((context, metric, value))
    return found


def value_problem(label, lines, context, expected):
    """`LABEL: CONTEXT: expected N, got M` when CONTEXT's value in the folded LINES is not EXPECTED,
    else None."""
    got = folded.value(lines, context)
    return None if got == expected else f"{label}: {context}: expected {expected}, got {got}"


_FIG4 = ["demo.Fig4.main([Ljava/lang/String;)V", "demo.Fig4.f()V"]
_FIG4_G, _FIG4_H = "demo.Fig4.g(I)V", "demo.Fig4.h()V"
_FIG5 = ["demo.Fig5.main([Ljava/lang/String;)V", "demo.Fig5.A()V"]
_FIG5_B, _FIG5_C, _FIG5_D = "demo.Fig5.B()V", "demo.Fig5.C()V", "demo.Fig5.D()V"


def _context(*frames):
    return ";".join(frames)


def paper(program, calls, bytecodes):
    """The papers' numbers for PROGRAM's folded CALLS and BYTECODES lines: None for a program that
    is no paper example, else the example's name, its numbers (as text) and the list of values that
    differ."""
    if program == "Fig4":
        checks = [("f", calls, _context(*_FIG4), "1"),
                  ("f bytecodes", bytecodes, _context(*_FIG4), "106"),
                  ("f.h", calls, _context(*_FIG4, _FIG4_H), "10"),
                  ("f.g", calls, _context(*_FIG4, _FIG4_G), "10"),
                  ("f.g.h", calls, _context(*_FIG4, _FIG4_G, _FIG4_H), "55")]
        name, numbers = "JP Fig. 4", "f = 1 (106 bytecodes), f.h = 10, f.g = 10, f.g.h = 55"
        problems = []
    elif program == "Fig5":
        checks = [("main.A.B.D", calls, _context(*_FIG5, _FIG5_B, _FIG5_D), "200"),
                  ("main.A.C.D", calls, _context(*_FIG5, _FIG5_C, _FIG5_D), "100")]
        name, numbers = "ProfBuilder Fig. 5", "611 calls, main.A.B.D = 200, main.A.C.D = 100"
        total = folded.total(calls)
        problems = [] if total == 611 else [f"total calls: expected 611, got {total}"]
    else:
        return None
    problems += [problem for problem in (value_problem(*check) for check in checks) if problem]
    return name, numbers, problems


def _unescape(text):
    """A frame name or metric name of a profile as it was before escaping (`\\` and `\\n`)."""
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


def profile_lines(text):
    """The per-line counts of a JP profile's TEXT (its `line` records, docs/profile-format.md) as
    the oracle writes OUT.lines: `frame line bytecodes` lines, sorted."""
    frames, lines = {}, []
    for record in text.splitlines():
        kind, _, rest = record.partition(" ")
        if kind == "frame":
            frame_id, _, name = rest.partition(" ")
            frames[frame_id] = _unescape(name)
        elif kind == "line":
            frame_id, line, bytecodes = rest.split(" ")
            lines.append(f"{frames[frame_id]} {line} {bytecodes}")
    return sorted(lines)


def profile_allocations(text):
    """The allocations of a JP profile's TEXT (its `allocations:<type>` metrics, docs/profile-format.md)
    as the oracle writes OUT.allocations.folded: `frame;...;frame type count` lines, contexts of every
    thread group added up by path, sorted; call sites left out of the path."""
    frames, metrics, paths, counts = {}, {}, {}, {}
    for record in text.splitlines():
        kind, _, rest = record.partition(" ")
        if kind == "frame":
            frame_id, _, name = rest.partition(" ")
            frames[frame_id] = _unescape(name)
        elif kind == "metric":
            metric_id, name, _ = rest.split(" ", 2)
            if name.startswith("allocations:"):
                metrics[metric_id] = _unescape(name[len("allocations:"):])
        elif kind == "node":
            node_id, parent, frame = rest.split(" ")[:3]
            name = frames[frame]
            paths[node_id] = name if parent == "0" else f"{paths[parent]};{name}"
        elif kind == "value":
            node_id, metric_id, value = rest.split(" ")
            if metric_id in metrics:
                key = f"{paths[node_id]} {metrics[metric_id]}"
                counts[key] = counts.get(key, 0) + int(value)
    return sorted(f"{key} {value}" for key, value in counts.items())


def _java():
    if os.environ.get("JAVA"):
        return os.environ["JAVA"]
    if os.environ.get("JAVA_HOME"):
        return str(pathlib.Path(os.environ["JAVA_HOME"]) / "bin" / "java")
    return "java"


def main(argv):
    """See the module's docstring; returns the exit status."""
    try:
        if argv[:1] == ["build"] and len(argv) <= 2:
            print(build_agent(argv[1] if len(argv) == 2 else None))
            return 0
        if argv[:1] == ["run"] and len(argv) >= 4:
            main_class, classes, out, *args = argv[1:]
            lib = os.environ.get("ORACLE_LIB") or build_agent()
            with tempfile.TemporaryDirectory() as temp:
                stderr = pathlib.Path(temp) / "stderr"
                status = run(lib, _java(), main_class, classes, out, None, stderr, args,
                             os.environ.get("ORACLE_INCLUDE"), os.environ.get("ORACLE_OPTIONS", ""))
                with open(stderr, "rb") as text:
                    shutil.copyfileobj(text, sys.stderr.buffer)
            return status
    except OracleError as error:
        print(f"oracle: {error}", file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
