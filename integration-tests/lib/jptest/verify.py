"""The verifier harness of integration-tests/verify, compiled once per version of its sources.

    harness = Harness(jdk17_home, temurin25_home)   # compiles into the cache, once
    harness.hotspot(java, "--tsv", "after.tsv", "out.jar")   # the command, to run with a limit

The ARGS are those of the Java programs: [--cp DEPS] [--separate] [--report FILE] [--tsv FILE]
[--title TEXT] ROOT... (VerifyClasses.java and integration-tests/verify/README.md).

As a program, for a check by hand (the harness compiled with the JDK that JAVA belongs to):
    python3 -m jptest.verify hotspot|classfile|serial-uids JAVA ARGS...
    python3 -m jptest.verify compare JAVA BEFORE.tsv AFTER.tsv
"""
import hashlib
import pathlib
import shutil
import subprocess
import sys

from jptest import build

SOURCES = build.ROOT / "integration-tests" / "verify"
_SHARED = ["ClassRoots.java", "Findings.java", "VerifyArgs.java"]


class HarnessError(Exception):
    """The harness did not compile."""


def _compile(javac, release_args, out, sources):
    """Compiles SOURCES into OUT once (a `.complete` marker says it was done)."""
    if (out / ".complete").is_file():
        return
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    args = [str(javac), *release_args, "-nowarn", "-d", str(out), *(str(SOURCES / name) for name in sources)]
    if subprocess.run(args, stdin=subprocess.DEVNULL, check=False).returncode != 0:
        raise HarnessError(f"{javac} could not compile {SOURCES}")
    (out / ".complete").touch()


class Harness:
    """VerifyClasses and SerialUids compiled with JDK's javac (17 or newer) and, with JDK25,
    ClassFileVerify with its javac, into ${JP_CACHE_DIR}/verify/<hash of the sources>/."""

    def __init__(self, jdk, jdk25=None):
        digest = hashlib.sha256(b"".join(path.read_bytes() for path in sorted(SOURCES.glob("*.java"))))
        out = build.cache_dir() / "verify" / digest.hexdigest()[:16]
        self.hotspot_cp = out / "hotspot"
        _compile(pathlib.Path(jdk) / "bin" / "javac", ["--release", "17"], self.hotspot_cp,
                 [*_SHARED, "VerifyClasses.java", "SerialUids.java"])
        self.classfile_cp = None
        if jdk25:
            self.classfile_cp = out / "classfile"
            _compile(pathlib.Path(jdk25) / "bin" / "javac", [], self.classfile_cp, [*_SHARED, "ClassFileVerify.java"])

    def hotspot(self, java, *args):
        """VerifyClasses on the JVM JAVA: HotSpot's verifier."""
        return [str(java), "-Xss4m", "-cp", str(self.hotspot_cp), "VerifyClasses", *map(str, args)]

    def classfile(self, java, *args):
        """ClassFileVerify on JAVA (24 or newer): the ClassFile API's verifier."""
        return [str(java), "-Xss4m", "-cp", str(self.classfile_cp), "ClassFileVerify", *map(str, args)]

    def serial_uids(self, java, *args):
        """SerialUids: each serializable class's serialVersionUID."""
        return [str(java), "-Xss4m", "-cp", str(self.hotspot_cp), "SerialUids", *map(str, args)]

    def compare(self, java, before, after):
        """The failures of AFTER (a --tsv file) that BEFORE lacks; status 1 when there are any."""
        return [str(java), "-cp", str(self.hotspot_cp), "VerifyClasses", "--compare", str(before), str(after)]


def main(argv):
    command, java, *args = argv
    home = pathlib.Path(java).resolve().parents[1]
    harness = Harness(home, home if command == "classfile" else None)
    runs = {"hotspot": harness.hotspot, "classfile": harness.classfile, "serial-uids": harness.serial_uids,
            "compare": harness.compare}
    sys.exit(subprocess.run(runs[command](java, *args), check=False).returncode)


if __name__ == "__main__":
    main(sys.argv[1:])
