"""Runtime suite: the runtime (java-runtime) with programs instrumented by `jp instrument`
(integration-tests/runtime/):
- threads: a Thread subclass that overrides getId() (instrumented) runs; two threads whose
  uninstrumented class makes getId() return the same value keep trees of their own, with exactly
  4,000,000 calls between them;
- thread groups: main, a fixed pool of 3 threads and a thread loader-7 are the groups main,
  pool-#-thread-# and loader-# of the text report's Threads section, with their threads and calls,
  and no other group (the JDK's own threads run no instrumented code);
  `jp report --thread` reports each alone with exactly its calls, the merged report is their sum,
  and an unknown group fails with status 2, naming the groups;
- virtual threads (Temurin 25): 1,000,000 tasks on virtual threads run plain at -Xmx128m and
  instrumented at -Xmx320m, in bounded time, count exactly 1,000,000 calls, and once they have
  ended the heap in use (after a full GC) is within 32 MB of the plain run's. The executor queues
  what the carriers have not run yet; instrumented tasks run slower, so its queue grows larger
  than in the plain run: the extra heap is for that, not for the profiler;
- class reloading: a class loaded 40,000 times by fresh class loaders runs instrumented in the
  plain run's -Xmx24m, every call counted;
- shutdown hooks: a hook's 3,000 calls are in every profile, 6 runs, 3 at a time;
- a starved writer: a program that holds all the heap but about 1 MB to its end gets its profile
  with every call (the agent keeps 1 MB in reserve for the write), or a jp: line says why not;
- periodic snapshots: Phases (phase A calls only a(), phase B only b()) run with -Djp.agent=periodic,
  triggered by bytecodes and by a timer: every snapshot with a() comes before every one with b() (with
  the bytecodes trigger, some have a() alone and some b() alone), the snapshots add up to the profile
  at exit, which is the default agent's context for context, and `jp report --timeline` shows a()'s
  intervals before b()'s;
- remote control: Remote, started with jp.start=paused and jp.jmx=true, is driven by a second JVM
  (JmxClient) over a local JMX connection, as jconsole does: start, stop after the middle phase,
  writeProfile; the profile holds exactly the middle phase;
- outputs: -Djp.output=/dev/null leaves the device, a FIFO is written into for its reader, and a
  profile file gets the umask's permissions;
- no runtime: instrumented classes (loops, exceptions, constructors, static initializers, leaf
  methods, an interface's default and static methods, methods run before their class's
  initializer) loaded by a class loader that cannot see the runtime, and run in a child JVM
  started without it, print what the plain classes print, under -Xverify:all, on JDK 17 and
  Temurin 25, with exactly one jp: warning each; with the runtime visible they count every call.

One PASS/FAIL/SKIP line per check; exits 1 if any failed, 2 if the suite could not run.
Set TEMURIN25_HOME to a JDK 25 (`none` to skip its checks), JAVA_HOME to a JDK 17.
"""
import concurrent.futures
import os
import pathlib
import shutil
import stat
import sys
import tempfile
import threading

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from jptest import build, commands, files, folded, jdks  # noqa: E402
from jptest.checks import Checks, indented  # noqa: E402

PROGRAM = "runtime.py"
PROGRAMS = build.ROOT / "integration-tests" / "runtime"
VIRTUAL_TASKS = 1000000
RELOADS = 40000
HOOK_CONTEXT = "HookWork.hook():void;HookWork.work(int):void"
HEAP_LINE = "heap in use MB "
# Job.run() is the outermost instrumented method of the pool's threads and of loader-7's both, so
# the merged report adds up two groups' contexts. Each of the pool's first 3 tasks starts a worker
# thread with it, so all 3 threads run instrumented code.
THREAD_GROUPS_JAVA = """\
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

public class ThreadGroups {
    static long sink;

    static synchronized void add(long value) {
        sink += value;
    }

    static void mainWork() {
        add(1);
    }

    static void poolWork(int n) {
        add(n);
    }

    static void load() {
        add(-1);
    }

    abstract static class Job implements Runnable {
        @Override
        public final void run() {
            work();
        }

        abstract void work();
    }

    static final class PoolTask extends Job {
        private final int n;

        PoolTask(int n) {
            this.n = n;
        }

        @Override
        void work() {
            poolWork(n);
        }
    }

    static final class Loader extends Job {
        @Override
        void work() {
            load();
        }
    }

    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        Thread loader = new Thread(new Loader(), "loader-7");
        loader.start();
        for (int i = 0; i < 30; i++) {
            pool.execute(new PoolTask(i));
        }
        for (int i = 0; i < 5; i++) {
            mainWork();
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
        loader.join();
        System.out.println("sink " + sink);
    }
}
"""
GROUPS_OUT = "sink 439"  # 0 + 1 + ... + 29 by the pool, 5 by main, -1 by loader-7
GROUPS_MAIN = "ThreadGroups.main(java.lang.String[]):void"
GROUPS_JOB = "ThreadGroups$Job.run():void"
GROUPS_POOL_WORK = f"{GROUPS_JOB};ThreadGroups$PoolTask.work():void"
GROUPS_LOAD = f"{GROUPS_JOB};ThreadGroups$Loader.work():void"
# Each group's folded calls, and its threads.
GROUPS = {
    "main": ([f"{GROUPS_MAIN} 1",
              f"{GROUPS_MAIN};ThreadGroups$Loader.<init>():void 1",
              f"{GROUPS_MAIN};ThreadGroups$Loader.<init>():void;ThreadGroups$Job.<init>():void 1",
              f"{GROUPS_MAIN};ThreadGroups$PoolTask.<init>(int):void 30",
              f"{GROUPS_MAIN};ThreadGroups$PoolTask.<init>(int):void;ThreadGroups$Job.<init>():void 30",
              f"{GROUPS_MAIN};ThreadGroups.mainWork():void 5",
              f"{GROUPS_MAIN};ThreadGroups.mainWork():void;ThreadGroups.add(long):void 5"], 1),
    "pool-#-thread-#": ([f"{GROUPS_JOB} 30",
                         f"{GROUPS_POOL_WORK} 30",
                         f"{GROUPS_POOL_WORK};ThreadGroups.poolWork(int):void 30",
                         f"{GROUPS_POOL_WORK};ThreadGroups.poolWork(int):void;ThreadGroups.add(long):void 30"], 3),
    "loader-#": ([f"{GROUPS_JOB} 1",
                  f"{GROUPS_LOAD} 1",
                  f"{GROUPS_LOAD};ThreadGroups.load():void 1",
                  f"{GROUPS_LOAD};ThreadGroups.load():void;ThreadGroups.add(long):void 1"], 1),
}
THREADS_SECTION = "== Threads (bytecodes) =="


def shown(path, lines=15):
    """The last LINES lines of a log, each behind `    | `."""
    return indented(commands.tail(path, lines), prefix="    | ")


def threads_section(text):
    """The lines of a text report's Threads section, from its heading up to the next section."""
    lines = text.splitlines()
    if THREADS_SECTION not in lines:
        return []
    start = lines.index(THREADS_SECTION)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("== ")), len(lines))
    return lines[start:end]


def thread_rows(section):
    """The rows of a Threads section (those below its columns' names), {group: (bytecodes, calls, threads)}."""
    columns = [i for i, line in enumerate(section) if line.split()[:1] == ["bytecodes"]]
    rows = {}
    for line in section[columns[0] + 1:] if columns else []:
        words = line.split(None, 4)
        if len(words) == 5:
            rows[words[4]] = tuple(int(words[i].replace(",", "")) for i in (0, 2, 3))
    return rows


def heap_in_use(path):
    """The megabytes of a `heap in use MB N` line of a program's stderr; 0 when there is none."""
    for line in commands.read_text(path).splitlines():
        if line.startswith(HEAP_LINE) and line[len(HEAP_LINE):].strip().isdigit():
            return int(line[len(HEAP_LINE):])
    return 0


class Runtime:
    def __init__(self, work):
        self.work = work
        self.checks = Checks()
        jdk17 = jdks.find_jdk17(with_jmods=False)
        if not jdk17:
            raise build.SuiteError("no JDK 17 found (set JAVA_HOME to one)")
        self.javac = jdk17 / "bin" / "javac"
        self.java = jdk17 / "bin" / "java"
        self.temurin = jdks.find_temurin25()
        self.jp = build.build_jp()
        self.runtime = build.build_runtime(work)
        # The programs: instrumented/ is instrumented, plain/ stays as compiled (on the class path beside).
        log = work / "javac.log"
        if not (self.javac8(work / "plain", PROGRAMS.glob("plain/*.java"), log)
                and self.javac8(work / "classes", PROGRAMS.glob("instrumented/*.java"), log, "-cp", work / "plain")):
            print(shown(log), end="")
            raise build.SuiteError("javac failed")
        if not self.instrument(work / "classes", work / "instrumented", work / "instrument.log"):
            print(shown(work / "instrument.log"), end="")
            raise build.SuiteError("jp instrument failed")
        self.cp = f"{work / 'instrumented'}:{work / 'plain'}:{self.runtime}"

    def javac8(self, out, sources, log, *options):
        """javac --release 8 on SOURCES into OUT, its messages appended to LOG."""
        args = [str(self.javac), "--release", "8", "-nowarn", "-Xlint:-options", *map(str, options), "-d", str(out),
                *map(str, sorted(sources))]
        return commands.run_logged(args, log, append=True) == 0

    def instrument(self, classes, out, log):
        return commands.run_logged([str(self.jp), "instrument", str(classes), "--out", str(out)], log,
                                   append=True) == 0

    def java_run(self, out, profile, *args, timeout=60, java=None):
        """Runs java ARGS with its output into the file OUT and its profile into PROFILE; its status."""
        command = [str(java or self.java), *([f"-Djp.output={profile}"] if profile else []), *map(str, args)]
        return commands.run_logged(command, out, timeout=timeout)

    def folded_calls(self, profile):
        """PROFILE's calls as folded lines, or None when `jp report` cannot read it."""
        calls = pathlib.Path(f"{profile}.calls")
        if commands.run_split([str(self.jp), "report", str(profile), "--format", "folded", "--metric", "calls",
                               "--out", str(calls)], os.devnull, os.devnull) != 0:
            return None
        return folded.read(calls)

    def calls(self, profile, context):
        """The calls of exactly CONTEXT (frames joined by `;`), 0 when it is absent, or `unreadable`."""
        lines = self.folded_calls(profile)
        return "unreadable" if lines is None else str(folded.total(lines, context))

    def total_calls(self, profile, frame):
        """The calls of every context that ends with FRAME, or `unreadable`."""
        lines = self.folded_calls(profile)
        return "unreadable" if lines is None else str(folded.total_ending_with(lines, frame))

    # -- threads ----------------------------------------------------------------------------------

    def threads(self):
        out = self.work / "getid"
        status = self.java_run(f"{out}.out", f"{out}.jpprof", "-cp", self.cp, "GetIdOverride")
        profile = pathlib.Path(f"{out}.jpprof")
        text = "threads: a Thread subclass whose instrumented getId() is overridden runs and is profiled"
        self.checks.check(status == 0 and commands.read_text(f"{out}.out").rstrip("\n") == "worker ran\ndone"
                          and profile.is_file() and profile.stat().st_size > 0,
                          f"runtime {text}", f"runtime {text}", shown(f"{out}.out"))

        out = self.work / "shared"
        if self.java_run(f"{out}.out", f"{out}.jpprof", "-cp", self.cp, "SharedId", timeout=120) != 0:
            self.checks.fail("runtime threads: SharedId failed", shown(f"{out}.out"))
            return
        work = self.total_calls(f"{out}.jpprof", "SharedId.work(int):int")
        loops = self.calls(f"{out}.jpprof", "SharedId.loop():void")
        self.checks.check(work == "4000000" and loops == "2",
                          "runtime threads: two threads with one getId() value count exactly 4,000,000 calls of "
                          "work, under 2 calls of loop",
                          f"runtime threads: two threads with one getId() value: {work} calls of work (want 4000000), "
                          f"{loops} of loop (want 2)",
                          indented("\n".join(folded.read(f"{out}.jpprof.calls")[:10]), prefix="    | "))

    # -- thread groups ----------------------------------------------------------------------------

    def report(self, profile, out, *options):
        """`jp report PROFILE OPTIONS` with its stdout into OUT and its stderr into OUT.err; its status."""
        return commands.run_split([str(self.jp), "report", str(profile), *options], out, f"{out}.err")

    def folded_report(self, profile, out, *options):
        """The folded lines of `jp report PROFILE OPTIONS`, or None when it fails."""
        if self.report(profile, out, "--format", "folded", *options) != 0:
            return None
        return folded.read(out)

    def thread_groups(self):
        groups = self.work / "groups"
        source = groups / "src" / "ThreadGroups.java"
        source.parent.mkdir(parents=True)
        source.write_text(THREAD_GROUPS_JAVA)
        if not (self.javac8(groups / "classes", [source], groups / "javac.log")
                and self.instrument(groups / "classes", groups / "instrumented", groups / "instrument.log")):
            self.checks.fail("runtime thread groups: could not compile or instrument",
                             shown(groups / "javac.log") + shown(groups / "instrument.log"))
            return
        profile = groups / "groups.jpprof"
        status = self.java_run(groups / "run.out", profile, "-cp", f"{groups / 'instrumented'}:{self.runtime}",
                               "ThreadGroups")
        if status != 0 or commands.read_text(groups / "run.out").rstrip("\n") != GROUPS_OUT:
            self.checks.fail(f"runtime thread groups: ThreadGroups failed ({status})", shown(groups / "run.out"))
            return

        text_status = self.report(profile, groups / "report.txt", "--format", "text")
        section = threads_section(commands.read_text(groups / "report.txt")) if text_status == 0 else []
        rows = thread_rows(section)
        calls = {name: self.folded_report(profile, groups / f"{name}.calls", "--thread", name, "--metric", "calls")
                 for name in GROUPS}
        bytecodes = {name: self.folded_report(profile, groups / f"{name}.bytecodes", "--thread", name)
                     for name in GROUPS}
        # Each group's row: the threads above, the calls and bytecodes of its contexts as --thread reports them.
        want = {name: (folded.total(bytecodes[name] or []), folded.total(lines), threads)
                for name, (lines, threads) in GROUPS.items()}
        self.checks.check(rows == want,
                          "runtime thread groups: the text report's Threads section lists exactly main (1 thread, "
                          "73 calls), pool-#-thread-# (3 threads, 120 calls) and loader-# (1 thread, 4 calls), "
                          "with the bytecodes of their --thread reports",
                          f"runtime thread groups: the Threads section (status {text_status}) has {rows} "
                          f"(want {want}, as bytecodes, calls, threads)",
                          indented("\n".join(section), prefix="    | ") or shown(groups / "report.txt.err"))

        for name, what in (("pool-#-thread-#", "only Job.run() > PoolTask.work() > poolWork (30 calls) > add, "
                                               "no mainWork or load"),
                           ("main", "only main() > mainWork (5 calls) > add and the tasks' constructors, "
                                    "no poolWork or load"),
                           ("loader-#", "only Job.run() > Loader.work() > load (1 call) > add")):
            self.checks.check(calls[name] is not None and sorted(calls[name]) == sorted(GROUPS[name][0]),
                              f"runtime thread groups: jp report --thread '{name}' has {what}",
                              f"runtime thread groups: jp report --thread '{name}' --metric calls differs "
                              f"from the {len(GROUPS[name][0])} lines wanted",
                              shown(groups / f"{name}.calls", 20) + shown(groups / f"{name}.calls.err"))

        for metric, groups_lines in (("calls", calls), ("bytecodes", bytecodes)):
            merged = self.folded_report(profile, groups / f"merged.{metric}", "--metric", metric)
            sums = folded.summed(line for lines in groups_lines.values() for line in lines or [])
            got = sorted(merged or [], key=lambda line: line.encode(errors="surrogateescape"))
            self.checks.check(merged is not None and got == sums,
                              f"runtime thread groups: the merged report's {metric} are the three groups' summed, "
                              f"line for line ({len(sums)} contexts)",
                              f"runtime thread groups: the merged report's {metric} differ from the three groups' "
                              "summed",
                              indented("\n".join(got), prefix="    | merged: ")
                              + indented("\n".join(sums), prefix="    | summed: "))

        out = groups / "nosuch"
        status = self.report(profile, out, "--thread", "nosuch", "--format", "folded")
        error = commands.read_text(f"{out}.err")
        self.checks.check(status == 2 and "nosuch" in error and all(name in error for name in GROUPS),
                          "runtime thread groups: jp report --thread nosuch fails with status 2, naming the groups",
                          f"runtime thread groups: jp report --thread nosuch: status {status} (want 2), its stderr "
                          "should name nosuch and the groups", shown(f"{out}.err"))

    # -- periodic snapshots -----------------------------------------------------------------------

    def merged_folded(self, profiles, out, metric):
        """The folded lines of `jp report PROFILES --metric METRIC` (merged), or None when it fails."""
        if commands.run_split([str(self.jp), "report", *map(str, profiles), "--format", "folded", "--metric", metric],
                              out, f"{out}.err") != 0:
            return None
        return sorted(folded.read(out))

    def periodic(self):
        work = self.work / "periodic"
        work.mkdir()
        phase_a, phase_b = "Phases.a(int):void", "Phases.b(int):void"
        runs = (("default", ["-Djp.agent=default"], []),
                ("bytecodes", ["-Djp.agent=periodic", "-Djp.periodic.bytecodes=200000"], []),
                ("timer", ["-Djp.agent=periodic", "-Djp.periodic.millis=50"], [work / "timer.snapshots"]))
        for name, options, args in runs:
            out = work / f"{name}.out"
            status = self.java_run(out, work / f"{name}.jpprof", *options, "-cp", self.cp, "Phases", *args, timeout=300)
            if status != 0 or commands.read_text(out).rstrip("\n") != "sink -44999850000":
                self.checks.fail(f"runtime periodic snapshots: Phases with {' '.join(options)} failed ({status})",
                                 shown(out))
                return
        finals = {name: {metric: self.merged_folded([work / f"{name}.jpprof"], work / f"{name}.{metric}", metric)
                         for metric in ("calls", "bytecodes")}
                  for name, _, _ in runs}
        self.checks.check(finals["default"]["calls"] and finals["bytecodes"] == finals["default"],
                          "runtime periodic snapshots: the periodic agent's profile at exit is the default agent's, "
                          f"context for context ({len(finals['default']['calls'] or [])} contexts, calls and bytecodes)",
                          "runtime periodic snapshots: the periodic agent's profile at exit differs from the default "
                          "agent's",
                          indented("\n".join(finals["bytecodes"]["bytecodes"] or []), prefix="    | periodic: ")
                          + indented("\n".join(finals["default"]["bytecodes"] or []), prefix="    | default: "))
        for name, trigger in (("bytecodes", "every 200,000 bytecodes"), ("timer", "every 50 ms")):
            series = sorted((work / f"{name}.snapshots").glob("snapshot-*.jpprof"))
            phases = []
            for snapshot in series:
                lines = self.folded_calls(snapshot) or []
                phases.append((folded.total_ending_with(lines, phase_a) > 0,
                               folded.total_ending_with(lines, phase_b) > 0))
            last_a = max((i for i, (a, _) in enumerate(phases) if a), default=-1)
            first_b = min((i for i, (_, b) in enumerate(phases) if b), default=len(phases))
            alone = (any(a and not b for a, b in phases), any(b and not a for a, b in phases))
            ordered = 0 <= last_a <= first_b < len(phases) and (name == "timer" or alone == (True, True))
            self.checks.check(ordered,
                              f"runtime periodic snapshots ({trigger}): {len(series)} snapshots, a() in those up to "
                              f"#{last_a + 1}, b() in those from #{first_b + 1}",
                              f"runtime periodic snapshots ({trigger}): phases out of order or mixed (a, b) per "
                              f"snapshot: {phases}")
            sums = {metric: self.merged_folded(series, work / f"{name}.series.{metric}", metric)
                    for metric in ("calls", "bytecodes")}
            self.checks.check(series and sums == finals[name],
                              f"runtime periodic snapshots ({trigger}): the snapshots add up to the profile at exit, "
                              "calls and bytecodes",
                              f"runtime periodic snapshots ({trigger}): the snapshots' sum differs from the profile "
                              "at exit",
                              indented("\n".join(sums["calls"] or []), prefix="    | summed: ")
                              + indented("\n".join(finals[name]["calls"] or []), prefix="    | at exit: "))
            text = work / f"{name}.timeline.txt"
            status = self.report(work / f"{name}.snapshots", text, "--timeline", "--format", "text")
            report = commands.read_text(text)
            html = self.report(work / f"{name}.snapshots", work / f"{name}.timeline.html", "--timeline",
                               "--format", "html")
            self.checks.check(status == 0 and html == 0 and -1 < report.find("Phases.a(int)")
                              < report.rfind("Phases.b(int)") and f"snapshots  {len(series)}\n" in report,
                              f"runtime periodic snapshots ({trigger}): jp report --timeline lists the {len(series)} "
                              "intervals, a()'s before b()'s, as text and html",
                              f"runtime periodic snapshots ({trigger}): jp report --timeline: status {status} "
                              f"(html {html})", shown(text, 30) + shown(f"{text}.err"))

    # -- run-time control -------------------------------------------------------------------------

    def remote_control(self):
        """Remote, started paused with its MBean, driven by JmxClient from a second JVM over a local
        JMX connection: the profile holds its middle phase alone, with exact calls."""
        work = self.work / "remote"
        (work / "client").mkdir(parents=True)
        log = work / "javac.log"
        if commands.run_logged([str(self.javac), "--release", "17", "-d", str(work / "client"),
                                str(PROGRAMS / "control" / "JmxClient.java")], log) != 0:
            self.checks.fail("runtime remote control: javac failed on JmxClient", shown(log))
            return
        profile, out = work / "remote.jpprof", work / "remote.out"
        target = commands.start_logged([str(self.java), f"-Djp.output={profile}", "-Djp.start=paused", "-Djp.jmx=true",
                                        "-cp", self.cp, "Remote", str(work)], out)
        try:
            if not commands.wait_for_line(out, "ready", target, 60):
                self.checks.fail("runtime remote control: Remote did not get ready", shown(out))
                return
            client = work / "client.out"
            status = commands.run_logged([str(self.java), "-cp", str(work / "client"), "JmxClient", str(target.pid),
                                          str(work)], client, timeout=120)
            said = commands.read_text(client)
            if status != 0 or target.wait(timeout=60) != 0:
                self.checks.fail(f"runtime remote control: JmxClient exited with {status}, Remote with "
                                 f"{target.returncode}", shown(client) + shown(out))
                return
        finally:
            if target.poll() is None:
                target.kill()
                target.wait()
        lines = self.folded_calls(profile) or []
        expected = ["Remote.middle():int 1", "Remote.middle():int;Remote.work(int):int 2",
                    "Remote.middle():int;Remote.work(int):int;Remote.step(int):int 42"]
        self.checks.check(lines == expected and "recording before: false" in said and "recording after: false" in said
                          and f"written: {profile}" in said,
                          "runtime remote control: a second JVM attached over JMX (org.jpprof:type=Control) starts "
                          "recording a paused program, stops it after the middle phase and writes the profile: it "
                          "holds exactly the middle phase (42 calls of step)",
                          "runtime remote control: the profile or the client's view differs",
                          indented("\n".join(lines), prefix="    | profile: ") + shown(work / "client.out"))

    # -- virtual threads --------------------------------------------------------------------------

    def virtual_threads(self):
        if not self.temurin:
            self.checks.skip("runtime virtual threads: no Temurin 25 (set TEMURIN25_HOME)")
            return
        vt = self.work / "vt"
        vt.mkdir()
        java25 = self.temurin / "bin" / "java"
        javac = [str(self.temurin / "bin" / "javac"), "--release", "25", "-d", str(vt / "classes"),
                 *map(str, sorted(PROGRAMS.glob("java25/*.java")))]
        if commands.run_logged(javac, vt / "javac.log") != 0 or \
                not self.instrument(vt / "classes", vt / "instrumented", vt / "instrument.log"):
            self.checks.fail("runtime virtual threads: could not compile or instrument",
                             shown(vt / "javac.log") + shown(vt / "instrument.log"))
            return
        watch = commands.Stopwatch()
        plain_status = commands.run_split([str(java25), "-Xmx128m", "-cp", str(vt / "classes"), "ManyVirtualThreads",
                                           str(VIRTUAL_TASKS)], vt / "plain.out", vt / "plain.err", timeout=120)
        plain_time = watch.whole_seconds()
        watch = commands.Stopwatch()
        # KILL because a JVM stuck in back-to-back full GCs ignores TERM.
        jp_status = commands.run_split(["timeout", "-s", "KILL", "120", str(java25), "-Xmx320m",
                                        f"-Djp.output={vt / 'vt.jpprof'}", "-cp", f"{vt / 'instrumented'}:{self.runtime}",
                                        "ManyVirtualThreads", str(VIRTUAL_TASKS)], vt / "jp.out", vt / "jp.err")
        jp_time = watch.whole_seconds()
        got = self.total_calls(vt / "vt.jpprof", "ManyVirtualThreads.task():void")
        plain_heap, jp_heap = heap_in_use(vt / "plain.err"), heap_in_use(vt / "jp.err")
        if plain_status != 0:
            self.checks.fail(f"runtime virtual threads: the plain run at -Xmx128m failed ({plain_status})",
                             shown(vt / "plain.err"))
        elif jp_status == 0 and commands.read_text(vt / "jp.out").rstrip("\n") == f"tasks {VIRTUAL_TASKS}" \
                and got == str(VIRTUAL_TASKS) and jp_heap <= plain_heap + 32:
            self.checks.pass_(f"runtime virtual threads: {VIRTUAL_TASKS} tasks instrumented at -Xmx320m in {jp_time}s "
                              f"(plain at -Xmx128m: {plain_time}s), exactly {got} calls of task; heap in use once "
                              f"they ended: {jp_heap} MB (plain: {plain_heap} MB)")
        else:
            self.checks.fail(f"runtime virtual threads: {VIRTUAL_TASKS} tasks instrumented at -Xmx320m: status "
                             f"{jp_status} after {jp_time}s, {got} calls of task, heap in use once they ended: "
                             f"{jp_heap} MB (plain: {plain_heap} MB, allowed 32 MB more)", shown(vt / "jp.err"))

    # -- class reloading --------------------------------------------------------------------------

    def class_reloading(self):
        """A plugin class loaded 40,000 times, each time by a new class loader dropped after one
        call: the classes are unloaded, and an instrumented run must keep nothing per load (the
        runtime has one method identifier per method, whatever loader loads its class), so it fits
        in the plain run's heap."""
        reload = self.work / "reload"
        javac_log, instrument_log = self.work / "reload.javac.log", self.work / "reload.instrument.log"
        if not (self.javac8(reload / "host", [PROGRAMS / "reload" / "Reload.java"], javac_log)
                and self.javac8(reload / "plugin", [PROGRAMS / "reload" / "Plugin.java"], javac_log)
                and self.instrument(reload / "host", reload / "host-jp", instrument_log)
                and self.instrument(reload / "plugin", reload / "plugin-jp", instrument_log)):
            self.checks.fail("runtime class reloading: could not compile or instrument",
                             shown(javac_log) + shown(instrument_log))
            return
        plain_status = self.java_run(reload / "plain.out", None, "-Xmx24m", "-cp", reload / "host", "Reload",
                                     reload / "plugin", RELOADS, timeout=300)
        jp_status = self.java_run(reload / "jp.out", reload / "reload.jpprof", "-Xmx24m", "-cp",
                                  f"{reload / 'host-jp'}:{self.runtime}", "Reload", reload / "plugin-jp", RELOADS,
                                  timeout=300)
        got = self.total_calls(reload / "reload.jpprof", "Plugin.getAsInt():int")
        if plain_status != 0:
            self.checks.fail(f"runtime class reloading: the plain run at -Xmx24m failed ({plain_status})",
                             shown(reload / "plain.out"))
        elif jp_status == 0 and files.same_bytes(reload / "plain.out", reload / "jp.out") and got == str(RELOADS):
            self.checks.pass_(f"runtime class reloading: a class loaded {RELOADS} times in fresh class loaders runs "
                              f"instrumented in the plain run's -Xmx24m, exactly {got} calls of getAsInt")
        else:
            self.checks.fail(f"runtime class reloading: instrumented at -Xmx24m: status {jp_status}, {got} calls of "
                             f"getAsInt (want {RELOADS})", shown(reload / "jp.out"))

    # -- shutdown hooks ---------------------------------------------------------------------------

    def shutdown_hooks(self):
        runs = [self.work / f"hook-{round_}-{i}" for round_ in (1, 2) for i in (1, 2, 3)]
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            for start in (0, 3):
                list(pool.map(lambda run: self.java_run(f"{run}.out", f"{run}.jpprof", "-cp", self.cp, "HookWork"),
                              runs[start:start + 3]))
        counts = [self.calls(f"{run}.jpprof", HOOK_CONTEXT) for run in runs]
        self.checks.check(counts == ["3000"] * 6,
                          "runtime shutdown hooks: the hook's 3,000 calls are in every profile (6 runs, 3 at a time)",
                          f"runtime shutdown hooks: calls under {HOOK_CONTEXT} in 6 runs: {' '.join(counts)} "
                          "(want 3000 each)", shown(f"{runs[0]}.out"))

    # -- a starved writer -------------------------------------------------------------------------

    def starved_writer(self):
        """Starved builds 222,222 contexts, then holds all the heap but about 1 MB to its end: the
        profile is written anyway, every call in it, or a jp: line names the path and the cause."""
        base = self.work / "starved"
        profile = pathlib.Path(f"{base}.jpprof")
        command = [str(self.java), "-Xmx96m", f"-Djp.output={profile}", "-cp", self.cp, "Starved", "100000"]
        status = commands.run_split(command, f"{base}.out", f"{base}.err", timeout=120)
        plain = commands.run_split([str(self.java), "-Xmx96m", "-cp", self.work / "classes", "Starved", "100000"],
                                   f"{base}.plain", os.devnull, timeout=120)
        same = status == 0 and plain == 0 and commands.read_text(f"{base}.out") == commands.read_text(f"{base}.plain")
        said = [line for line in commands.read_text(f"{base}.err").splitlines() if line.startswith("jp: ")]
        # step runs once per digit and once more at the end: 6 times for each of 100,000 numbers.
        steps = self.total_calls(profile, "Starved.step(int,int):long") if profile.is_file() else "none"
        if same and steps == "600000" and not said:
            self.checks.pass_("runtime starved writer: a program that holds all the heap but 1 MB to its end "
                              "(-Xmx96m) gets its profile, with all 600,000 calls of step")
        elif same and not profile.is_file() and any(str(profile) in line and "OutOfMemoryError" in line
                                                      for line in said):
            self.checks.pass_(f"runtime starved writer: no profile, and stderr says why: {said[0]}")
        else:
            self.checks.fail(f"runtime starved writer: status {status} (plain {plain}), output as plain: {same}, "
                             f"calls of step: {steps}, jp lines: {said}", shown(f"{base}.err"))

    # -- outputs ----------------------------------------------------------------------------------

    def dev_null(self):
        if files.file_type("/dev/null") != "character special file":
            self.checks.skip("runtime outputs: /dev/null is not a character device here")
            return
        out = self.work / "devnull.out"
        status = self.java_run(out, "/dev/null", "-cp", self.cp, "Small")
        device = files.file_type("/dev/null")
        if device == "character special file" and status == 0 and \
                not any(line.startswith("jp: ") for line in commands.read_text(out).splitlines()):
            self.checks.pass_("runtime outputs: -Djp.output=/dev/null writes into the device, which stays a "
                              "character device")
            return
        self.checks.fail(f"runtime outputs: -Djp.output=/dev/null: status {status}, /dev/null is now: {device}",
                         shown(out))
        # Put the device back if the run replaced it (possible as root only).
        if device != "character special file" and os.geteuid() == 0:
            os.remove("/dev/null")
            os.mknod("/dev/null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
            os.chmod("/dev/null", 0o666)

    def fifo(self):
        if not shutil.which("mkfifo"):
            self.checks.skip("runtime outputs: no mkfifo")
            return
        fifo = self.work / "profile.fifo"
        os.mkfifo(fifo)
        read = self.work / "fifo.read"
        reader_status = []
        reader = threading.Thread(target=lambda: reader_status.append(
            commands.run_split(["cat", str(fifo)], read, os.devnull, timeout=60)))
        reader.start()
        status = self.java_run(self.work / "fifo.out", fifo, "-cp", self.cp, "Small")
        reader.join()
        read_status = reader_status[0]
        first = (commands.read_text(read).splitlines() or [""])[0]
        if status == 0 and read_status == 0 and files.file_type(fifo) == "fifo" and first.startswith("jp-profile ") \
                and self.calls(read, "Small.main(java.lang.String[]):void;Small.twice(int):int") == "10":
            self.checks.pass_("runtime outputs: a FIFO output is written into, and its reader gets the profile")
        else:
            self.checks.fail(f"runtime outputs: FIFO: program status {status}, reader status {read_status}, "
                             f"{files.file_type(fifo)}", shown(self.work / "fifo.out"))

    def permissions(self):
        profile = self.work / "mode.jpprof"
        previous = os.umask(0o022)
        try:
            status = self.java_run(os.devnull, profile, "-cp", self.cp, "Small")
        finally:
            os.umask(previous)
        mode = format(stat.S_IMODE(profile.stat().st_mode), "o") if status == 0 and profile.exists() else ""
        self.checks.check(mode == "644", "runtime outputs: under umask 022 the profile is created 644, as other files",
                          f"runtime outputs: under umask 022 the profile is created {mode or 'not at all'} (want 644)")

    # -- no runtime -------------------------------------------------------------------------------

    def no_runtime(self):
        """isolated/ instrumented and run by plain/IsolatedRuns where the runtime is not visible."""
        work = self.work / "isolated"
        log = work / "build.log"
        work.mkdir()
        if not (self.javac8(work / "classes", (PROGRAMS / "isolated").rglob("*.java"), log)
                and self.instrument(work / "classes", work / "instrumented", log)):
            self.checks.fail("runtime no runtime: the program does not build", shown(log))
            return
        javas = [("JDK 17", self.java)] + ([("Temurin 25", self.temurin / "bin" / "java")] if self.temurin else [])
        for (jdk, java), mode in [(jdk, mode) for jdk in javas for mode in ("loader", "child")]:
            runs = {}
            for name, classes in [("plain", work / "classes"), ("instrumented", work / "instrumented")]:
                out = work / f"{mode}-{jdk.split()[0]}-{name}"
                status = commands.run_split([str(java), "-Xverify:all", "-cp", f"{self.work / 'plain'}:{self.runtime}",
                                             "IsolatedRuns", mode, str(classes)], f"{out}.out", f"{out}.err")
                warnings = [line for line in commands.read_text(f"{out}.err").splitlines() if line.startswith("jp:")]
                runs[name] = (status, commands.read_text(f"{out}.out"), warnings)
            (plain_status, plain, _), (status, output, warnings) = runs["plain"], runs["instrumented"]
            where = {"loader": "a class loader that cannot see the runtime",
                     "child": "a child JVM started without the runtime"}[mode]
            ok = plain_status == 0 and status == 0 and "early 7 14" in plain and output == plain and len(warnings) == 1
            self.checks.check(ok, f"runtime no runtime ({jdk}): instrumented classes in {where} print what the plain "
                                  f"ones print ({len(plain.splitlines())} lines), with one warning: {warnings[:1]}",
                              f"runtime no runtime ({jdk}): instrumented classes in {where}: status {status} "
                              f"(plain {plain_status}), {len(warnings)} jp: warnings",
                              indented(commands.output(["diff", f"{work}/{mode}-{jdk.split()[0]}-plain.out",
                                                        f"{work}/{mode}-{jdk.split()[0]}-instrumented.out"])[0], 10))
        # The same classes, with the runtime visible, count every call.
        out = work / "counted"
        status = self.java_run(f"{out}.out", f"{out}.jpprof", "-cp", f"{work / 'instrumented'}:{self.runtime}",
                               "isolated.Work")
        leaf = self.total_calls(f"{out}.jpprof", "isolated.Work.leaf(int):int")
        early = self.total_calls(f"{out}.jpprof", "isolated.Work.early():isolated.Base")
        self.checks.check(status == 0 and (leaf, early) == ("1000", "1"),
                          "runtime no runtime: with the runtime visible, the same classes count every call "
                          "(1000 calls of a leaf method, 1 of a method run before its class's initializer)",
                          f"runtime no runtime: with the runtime visible, {leaf} calls of leaf (1000 expected), "
                          f"{early} of early (1 expected)", shown(f"{out}.out"))

    def run(self):
        self.no_runtime()
        self.threads()
        self.thread_groups()
        self.periodic()
        self.remote_control()
        self.virtual_threads()
        self.class_reloading()
        self.shutdown_hooks()
        self.starved_writer()
        self.dev_null()
        self.fifo()
        self.permissions()
        self.checks.summary(PROGRAM)
        return self.checks.status()


def suite():
    work = pathlib.Path(tempfile.mkdtemp(prefix="jp-runtime."))
    try:
        return Runtime(work).run()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    build.main(PROGRAM, suite)
