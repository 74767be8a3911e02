"""Round-trip suite: `jp roundtrip` must give back every class file byte for byte.

Builds the `jp` CLI (release) and runs `jp roundtrip --quiet` and `jp roundtrip --quiet --deep`
over three inputs:
  jdk17-java.base  $JDK17/jmods/java.base.jmod (JDK 17 from JAVA_HOME, else the Debian package)
  temurin25-image  every module of a Temurin 25 image, extracted once with `jimage extract` into
                   ${JP_CACHE_DIR:-$HOME/.cache/jp}/temurin25-<version>; skipped when no Temurin 25
                   is installed (set TEMURIN25_HOME to point at one)
  corpus           the jars of integration-tests/corpus (fetched by corpus/fetch.sh)
A check passes when jp exits 0 and its last line reads `... 0 differ, 0 failed` with at least one
class, within JP_ROUNDTRIP_TIMEOUT seconds (600). A last check feeds jp a truncated class and
expects it to be counted as failed, with exit 1. One line per check; on a failure the classes at
fault are listed (a second run without --quiet). Exits 1 if any check failed, 2 if the suite could
not run at all.
"""
import os
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "lib"))
from jptest import build, commands, jdks, roundtrip  # noqa: E402
from jptest.checks import Checks, indented  # noqa: E402

PROGRAM = "roundtrip.py"
# The first bytes of a class file, cut off inside its constant pool count.
TRUNCATED_CLASS = b"\xca\xfe\xba\xbe\x00\x00\x00\x34\x00"


class RoundTrip:
    def __init__(self):
        self.checks = Checks()
        # Seconds that one `jp roundtrip` may take before it counts as failed: a hang must not eat
        # CI's time. Each takes about a second today.
        self.limit = int(os.environ.get("JP_ROUNDTRIP_TIMEOUT", "600"))
        self.checks.info(f"{PROGRAM}: building jp (cargo build --release -p jp-cli)")
        self.jp = str(build.build_jp())

    def check(self, name, flags, inputs):
        """One `jp roundtrip` run over INPUTS and its result line."""
        inputs = [str(path) for path in inputs]
        watch = commands.Stopwatch()
        out, status = commands.output([self.jp, "roundtrip", "--quiet", *flags, *inputs], timeout=self.limit)
        lines = out.splitlines()
        last = f"timed out after {self.limit}s" if status == 124 else (lines[-1] if lines else "")
        shown_flags = f"({' '.join(flags)}) " if flags else ""
        if status == 0 and roundtrip.all_identical(last):
            self.checks.pass_(f"{name} {shown_flags}in {watch}s: {last}")
            return
        seconds = str(watch)
        at_fault, _ = commands.output([self.jp, "roundtrip", *flags, *inputs], timeout=self.limit)
        faults = [line for line in at_fault.splitlines() if not line.startswith("roundtrip: ")]
        self.checks.fail(f"{name} {shown_flags}in {seconds}s (exit {status}): {last}",
                         indented("\n".join(lines[:-1]), 20)
                         + "    classes at fault (first 40, from a run without --quiet):\n"
                         + indented("\n".join(faults), 40))

    def both(self, name, inputs):
        self.check(name, [], inputs)
        self.check(name, ["--deep"], inputs)

    def negative_control(self):
        """A truncated class must be counted as failed, with exit 1, so that a jp that called
        everything identical could not pass this suite."""
        with tempfile.TemporaryDirectory() as control:
            (pathlib.Path(control) / "Truncated.class").write_bytes(TRUNCATED_CLASS)
            out, status = commands.stdout_of([self.jp, "roundtrip", "--quiet", control], subprocess.DEVNULL,
                                             timeout=self.limit)
        lines = out.splitlines()
        last = lines[-1] if lines else ""
        if status == 1 and roundtrip.summary(last) == roundtrip.Summary(classes=1, identical=0, differ=0, failed=1):
            self.checks.pass_(f"negative-control: a truncated class is reported: {last}")
        else:
            self.checks.fail(f"negative-control (exit {status}, expected 1): '{last}'")

    def run(self):
        jdk17 = jdks.find_jdk17()
        if not jdk17:
            raise build.SuiteError("no JDK 17 with jmods found (set JAVA_HOME to one)")
        self.both("jdk17-java.base", [jdk17 / "jmods" / "java.base.jmod"])

        temurin = jdks.find_temurin25()
        if temurin:
            self.both("temurin25-image", [temurin_image(temurin)])
        else:
            self.checks.skip("temurin25-image: no Temurin 25 installed (set TEMURIN25_HOME to one)")

        # jp walks a directory for class files only, so the jars are named one by one.
        self.both("corpus", sorted(build.fetch_corpus().glob("*.jar")))
        self.negative_control()
        self.checks.summary(PROGRAM)
        return self.checks.status()


def temurin_image(jdk):
    """Every module of JDK's image, extracted once into the cache (the directory's name carries the
    exact version)."""
    def extract(partial):
        print(f"{PROGRAM}: extracting {jdk}/lib/modules into {directory}", file=sys.stderr, flush=True)
        if commands.run([str(jdk / "bin" / "jimage"), "extract", "--dir", str(partial), str(jdk / "lib" / "modules")],
                        stdout=sys.stderr)[0] != 0:
            raise build.SuiteError(f"could not extract {jdk}/lib/modules")

    directory = build.cache_dir() / f"temurin25-{jdks.jdk_version(jdk)}"
    return build.made_once(directory, extract)


if __name__ == "__main__":
    build.main(PROGRAM, lambda: RoundTrip().run())
