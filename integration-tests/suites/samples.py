"""Samples suite: sampled time beside the exact counts (`jp report --samples`, docs/cli.md).

SpinAndSleep, instrumented by `jp instrument`, runs under JFR (-XX:StartFlightRecording with
settings=profile): spin() is a CPU-bound loop, nap() sleeps, drain() reads /dev/zero (in a native
method, FileInputStream.readBytes). Checks:
- cpu-samples: spin()'s subtree holds exactly the jdk.ExecutionSample events with spin() on their
  stack, as counted here from `jfr print --json`, and that is most of them; nap() has fewer;
- native-samples: FileInputStream.readBytes is a sampled-only context under drain(), with exactly
  the jdk.NativeMethodSample events whose stack has it under drain();
- the exact counts (calls and bytecodes) are the same with and without the samples, and the text
  report labels the sampled metrics "sampled, not reproducible".

One PASS/FAIL line per check; exits 1 if any failed, 2 if the suite could not run.
Set JAVA_HOME to a JDK 17.
"""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from jptest import build, commands, folded, jdks  # noqa: E402
from jptest.checks import Checks, indented  # noqa: E402

PROGRAM = "samples.py"
SPIN = "SpinAndSleep.spin(long):long"
NAP = "SpinAndSleep.nap(int):void"
DRAIN = "SpinAndSleep.drain(int):long"
READ_BYTES = "java.io.FileInputStream.readBytes(byte[],int,int):int"
SOURCE = """\
import java.io.FileInputStream;
import java.io.IOException;

public class SpinAndSleep {
    static long sink;

    static long spin(long rounds) {
        long x = 1;
        for (long i = 0; i < rounds; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    static void nap(int millis) throws InterruptedException {
        Thread.sleep(millis);
    }

    static long drain(int reads) throws IOException {
        byte[] buffer = new byte[1 << 20];
        long read = 0;
        try (FileInputStream zeros = new FileInputStream("/dev/zero")) {
            for (int i = 0; i < reads; i++) {
                read += zeros.read(buffer);
            }
        }
        return read;
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 10; i++) {
            sink += spin(30_000_000L);
            nap(60);
            sink += drain(200);
        }
        System.out.println(sink != 0 ? "done" : "zero");
    }
}
"""


def shown(path, lines=20):
    return indented(commands.read_text(path), lines, prefix="    | ")


def jfr_stacks(jfr, recording, event):
    """The stacks of RECORDING's EVENT events, each outermost frame first, as `Class.method` names."""
    text, status = commands.stdout_of([str(jfr), "print", "--json", "--events", event, str(recording)], timeout=300)
    if status != 0:
        raise build.SuiteError(f"jfr print failed ({status}) on {recording}")
    stacks = []
    for sample in json.loads(text)["recording"]["events"]:
        trace = sample["values"].get("stackTrace") or {"frames": []}
        frames = [f"{frame['method']['type']['name'].replace('/', '.')}.{frame['method']['name']}"
                  for frame in trace["frames"]]
        stacks.append(frames[::-1])
    return stacks


def under(lines, frame):
    """The sum of the folded LINES whose stack has FRAME."""
    return sum(int(value) for stack, value in map(folded.split_line, lines) if value and frame in stack.split(";"))


class Samples:
    def __init__(self, work):
        self.work = work
        self.checks = Checks()
        jdk17 = jdks.find_jdk17(with_jmods=False)
        if not jdk17:
            raise build.SuiteError("no JDK 17 found (set JAVA_HOME to one)")
        self.java, self.javac, self.jfr = (jdk17 / "bin" / tool for tool in ("java", "javac", "jfr"))
        self.jp = build.build_jp()
        runtime = build.build_runtime(work)
        source = work / "src" / "SpinAndSleep.java"
        source.parent.mkdir(parents=True)
        source.write_text(SOURCE)
        log = work / "build.log"
        if (commands.run_logged([str(self.javac), "-d", str(work / "classes"), str(source)], log) != 0
                or commands.run_logged([str(self.jp), "instrument", str(work / "classes"), "--out",
                                        str(work / "instrumented")], log, append=True) != 0):
            print(shown(log), end="")
            raise build.SuiteError("could not compile or instrument SpinAndSleep")
        self.profile = work / "run.jpprof"
        self.recording = work / "run.jfr"
        run = [str(self.java), f"-Djp.output={self.profile}",
               f"-XX:StartFlightRecording=filename={self.recording},settings=profile",
               "-cp", f"{work / 'instrumented'}:{runtime}", "SpinAndSleep"]
        if commands.run_logged(run, work / "run.out", timeout=300) != 0 or not self.recording.is_file():
            print(shown(work / "run.out"), end="")
            raise build.SuiteError("SpinAndSleep did not run under JFR")

    def report(self, name, *options):
        """`jp report` of the run with OPTIONS, into NAME; its lines, or None when it failed."""
        out = self.work / name
        if commands.run_split([str(self.jp), "report", str(self.profile), *options], out, f"{out}.err") != 0:
            self.checks.fail(f"samples: jp report {' '.join(options)} failed", shown(f"{out}.err"))
            return None
        return folded.read(out)

    def cpu_time(self):
        lines = self.report("cpu.folded", "--samples", str(self.recording), "--format", "folded",
                            "--metric", "cpu-samples")
        if lines is None:
            return
        stacks = jfr_stacks(self.jfr, self.recording, "jdk.ExecutionSample")
        spinning = sum("SpinAndSleep.spin" in stack for stack in stacks)
        spin, nap, everything = under(lines, SPIN), under(lines, NAP), folded.total(lines)
        self.checks.check(
            spin == spinning and everything == len(stacks) and spin * 2 > everything and nap < spin,
            f"samples: spin() holds its {spin} of the {everything} CPU samples, as JFR recorded them, more "
            f"than nap() ({nap})",
            f"samples: spin() has {spin} CPU samples (JFR: {spinning}), of {everything} (JFR: {len(stacks)}); "
            f"nap() {nap}; spin() should have most",
            indented("\n".join(sorted(lines, key=lambda line: -int(folded.split_line(line)[1] or 0))), 12,
                     prefix="    | "))

    def native_frames(self):
        lines = self.report("native.folded", "--samples", str(self.recording), "--format", "folded",
                            "--metric", "native-samples")
        if lines is None:
            return
        stacks = jfr_stacks(self.jfr, self.recording, "jdk.NativeMethodSample")
        reading = sum(stack[-1:] == ["java.io.FileInputStream.readBytes"] and "SpinAndSleep.drain" in stack
                      for stack in stacks)
        below = sum(int(value) for stack, value in map(folded.split_line, lines)
                    if value and DRAIN in stack.split(";") and stack.endswith(f";{READ_BYTES}"))
        self.checks.check(
            below == reading > 0,
            f"samples: the native FileInputStream.readBytes is under its caller drain() with its {below} "
            "native-method samples, as JFR recorded them",
            f"samples: {below} native samples of readBytes under drain() (JFR: {reading}, want more than 0)",
            indented("\n".join(lines), 12, prefix="    | "))

    def exact_counts_untouched(self):
        for metric in ("calls", "bytecodes"):
            plain = self.report(f"{metric}.folded", "--format", "folded", "--metric", metric)
            sampled = self.report(f"{metric}.sampled.folded", "--samples", str(self.recording), "--format",
                                  "folded", "--metric", metric)
            if plain is None or sampled is None:
                return
            self.checks.check(plain == sampled and plain != [],
                              f"samples: the {metric} are the same with and without the samples",
                              f"samples: the {metric} differ with the samples",
                              indented("\n".join(sorted(set(plain) ^ set(sampled))), 12, prefix="    | "))
        text = self.report("report.txt", "--samples", str(self.recording), "--format", "text")
        if text is not None:
            label = "total cpu-samples"
            row = next((line for line in text if line.startswith(label)), "")
            self.checks.check(row.endswith("samples (sampled, not reproducible)"),
                              "samples: the text report labels the sampled time as sampled, not reproducible",
                              f"samples: the text report's {label} row is {row!r}",
                              indented("\n".join(text), 20, prefix="    | "))

    def run(self):
        self.cpu_time()
        self.native_frames()
        self.exact_counts_untouched()
        self.checks.summary(PROGRAM)
        return self.checks.status()


def suite():
    return build.in_scratch(PROGRAM, "jp-samples.", lambda work: Samples(work).run())


if __name__ == "__main__":
    build.main(PROGRAM, suite)
