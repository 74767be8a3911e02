"""Stress suite: rewriting must keep behaviour and keep classes verifiable, with the test-only
stress scheme and with the profiling scheme.

The stress scheme (engine/stress, the `jp-stress` binary) rewrites every method with every edit the
bytecode layer knows: counters per basic block, calls at loop headers (new frames), an extra
parameter on private methods, and with `jp-stress --pad N` padding that forces branch widening.

(a) behaviour: the programs of integration-tests/behaviour/ are compiled (java8/ with `--release 8`
    and `--release 17`, java17/ with `--release 17`, and with Temurin 25 also java8/, java17/ and
    java25/ with `--release 25`), then run plain, rewritten by `jp-stress` and with
    `jp-stress --pad 40000`. stdout, stderr and the exit status must be identical.
    The same programs also run instrumented with the profiling scheme (`--bba precise`, the runtime
    jar on the class path), with the same outputs, and must write a profile. Every instrumented
    class must also pass VerifyClasses, the rewrite must have happened (a `$jp$poll` method, or
    calls into the runtime, in the classes), and BigMethod.big must be kept unrewritten, with a
    warning, once padded past 64 KB.
(b) verification: the Maven corpus (integration-tests/corpus, each jar checked on its own with all
    corpus jars as dependencies) and the non-`java/` classes of JDK 17's java.base (extracted once
    into the cache) are checked before and after `jp-stress` by HotSpot (VerifyClasses on
    JDK 17, and on Temurin 25 when present, which also reads the corpus's Java 21 classes) and by
    the JDK 25 ClassFile API verifier (ClassFileVerify, Temurin 25), and the same again after the
    profiling scheme (`--bba precise`), the runtime jar beside. With `jp-stress --pad 40000`,
    java.base and a subset of the corpus (PAD_JAR_NAMES below; every method grows by 40 KB, which
    makes jp and the verifiers slow) are checked by Temurin 25's HotSpot and ClassFile API (JDK
    17's HotSpot without Temurin 25). A check fails when a class fails after the rewrite that did
    not fail before (see integration-tests/verify/README.md). After the profiling scheme,
    serializable classes must keep their serialVersionUID, and every class that ASM's API level 5
    visitors read before (as old tools such as Mockito 2's inline mock maker do; OldAsmRead.java)
    must read after.
Every jp run is done twice, and both runs must write the same bytes.

One PASS/FAIL/SKIP line per check, with its time; the reports of a failed check are kept and their
path printed. Set TEMURIN25_HOME to point at a Temurin 25 (`none` to run without one), JAVA_HOME at
a JDK 17, JP_STRESS_TIMEOUT to the seconds one jp or verifier run may take (600).
Exits 1 if any check failed, 2 if the suite could not run.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from jptest import build, commands, files, jdks, verify  # noqa: E402
from jptest.checks import Checks, indented  # noqa: E402

PROGRAM = "stress.py"
PAD = 40000
BEHAVIOUR = build.ROOT / "integration-tests" / "behaviour"
VARIANTS = ("stress", "pad", "profile")
# Programs whose output shows the classes' members, kept identical by the profiling scheme only:
# the test-only stress scheme adds members that reflection shows on purpose (a poll method, extra
# parameters).
PROFILE_ONLY = {"Reflection"}
# What shows that a variant rewrote a class: the stress scheme's poll method, the profiling
# scheme's calls into the runtime.
MARKERS = {"stress": b"$jp$poll", "pad": b"$jp$poll", "profile": b"org/jpprof/runtime/RC"}
# The padded corpus run: jars of every era and shape (jsr/ret from 1.x compilers, Java 5-8,
# multi-release, Java 17, Kotlin, Scala 3, ecj's huge methods), chosen to stay within the time
# budget: the whole corpus padded takes jp about 7 minutes and each verifier about 6.
PAD_JAR_NAMES = ["commons-lang-2.0", "junit-3.8.1", "log4j-1.2.8", "asm-9.7.1", "gson-2.8.9", "jackson-core-2.18.2",
                 "commons-lang3-3.17.0", "jetty-server-12.0.16", "scala3-library_3-3.3.4", "kotlin-stdlib-2.1.0",
                 "ecj-3.40.0"]
_VERIFIED = re.compile(r"^verify: [1-9][0-9]* classes, 0 verify errors, 0 other failures$")


def rewriters():
    """Builds what rewrites classes and returns, for each variant, the command that rewrites the
    inputs given after it (with `--out DIR`): the test-only stress scheme, padded or not, and the
    profiling scheme."""
    jp = str(build.build_jp())
    stress = [str(build.build_binary("jp-stress", "jp-stress"))]
    return {"stress": stress, "pad": [*stress, "--pad", str(PAD)],
            "profile": [jp, "instrument", "--scheme", "profile", "--bba", "precise"]}


class Stress:
    def __init__(self, work):
        self.work = work
        self.checks = Checks()
        self.limit = int(os.environ.get("JP_STRESS_TIMEOUT", "600"))  # seconds for one jp or verifier run
        self.checks.info(f"{PROGRAM}: building jp and jp-stress (cargo build --release -p jp-cli -p jp-stress)")
        self.rewrite = rewriters()
        self.jdk17 = jdks.find_jdk17()
        if not self.jdk17:
            raise build.SuiteError("no JDK 17 with jmods found (set JAVA_HOME to one)")
        self.java17 = self.jdk17 / "bin" / "java"
        self.checks.info(f"{PROGRAM}: building the runtime jar (mvn package -pl java-runtime)")
        self.runtime = build.build_runtime(work)
        self.temurin = jdks.find_temurin25()
        if not self.temurin:
            self.checks.info(f"{PROGRAM}: no Temurin 25 (set TEMURIN25_HOME): its checks are skipped")
        try:
            self.harness = verify.Harness(self.jdk17, self.temurin)
        except verify.HarnessError as error:
            raise build.SuiteError(f"could not compile integration-tests/verify: {error}") from error
        self.corpus = None

    # -- jp ---------------------------------------------------------------------------------------

    def instrument(self, name, out, variant, inputs):
        """Rewrites INPUTS into OUT (its output in OUT.log); returns the time and jp's summary line,
        or None after a FAIL line when jp fails."""
        watch = commands.Stopwatch()
        log = pathlib.Path(f"{out}.log")
        status = commands.run_logged([*self.rewrite[variant], *map(str, inputs), "--out", str(out)], log,
                                     timeout=self.limit)
        seconds = str(watch)
        summaries = [line for line in commands.read_text(log).splitlines() if line.startswith("instrument: ")]
        summary = summaries[-1] if summaries else ""
        if status != 0 or not summary:
            errors = [line for line in commands.read_text(log).splitlines() if not line.startswith("warning: ")]
            self.checks.fail(f"{name}: jp instrument exited {status} in {seconds}s: {summary or 'no summary'}",
                             indented("\n".join(errors), 20))
            return None
        return seconds, summary

    def deterministic(self, name, out, variant, inputs):
        """Rewrites INPUTS a second time, into OUT.again, and requires the bytes of OUT
        (docs/architecture.md: an incremental run must give the bytes of a clean run). OUT.again is
        kept when they differ."""
        again = pathlib.Path(f"{out}.again")
        if not self.instrument(f"{name} (again)", again, variant, inputs):
            return
        differing = files.differing_files(out, again)
        if not differing:
            self.checks.pass_(f"{name} deterministic: a second jp run wrote the same bytes "
                              f"({len(files.files_under(out))} files)")
            shutil.rmtree(again)
            return
        details = indented("\n".join(f"differs: {path}" for path in differing), 10)
        # Name the entries that differ inside the first differing jars.
        jars = [path for path in differing if path.suffix == ".jar" and (out / path).is_file()
                and (again / path).is_file()]
        for path in jars[:3]:
            details += indented("\n".join(f"{path.name}: differs: {entry}"
                                          for entry in files.jar_differences(out / path, again / path)), 5)
        self.checks.fail(f"{name} deterministic: a second jp run wrote different bytes", details)

    # -- (a) behaviour ----------------------------------------------------------------------------

    def run_program(self, java, cp, program, out, *jvm_options):
        """Runs PROGRAM; OUT.out gets its stdout and then its exit status, OUT.err its stderr."""
        status = commands.run_split([str(java), "-Xss4m", *jvm_options, "-cp", str(cp), program],
                                    f"{out}.out", f"{out}.err", timeout=120)
        with open(f"{out}.out", "a") as file:
            file.write(f"exit status {status}\n")

    def behaviour(self, name, sources, release, jdk):
        """Compiles SOURCES with `--release RELEASE`, rewrites them with each variant (twice),
        verifies the classes, runs every program plain and rewritten and compares."""
        watch = commands.Stopwatch()
        directory = self.work / "behaviour" / name
        classes, src = directory / "classes", directory / "src"
        classes.mkdir(parents=True)
        src.mkdir()
        for source in sorted(sources.glob("*.java")):
            shutil.copy(source, src)
        if sources == BEHAVIOUR / "java8":
            if commands.run_passing(["bash", str(BEHAVIOUR / "generated" / "big-method.sh"), str(src)]) != 0:
                raise build.SuiteError("integration-tests/behaviour/generated/big-method.sh failed")
        javac_log = directory / "javac.log"
        if commands.run_logged([str(jdk / "bin" / "javac"), "--release", str(release), "-nowarn", "-Xlint:-options",
                                "-d", str(classes), *map(str, sorted(src.glob("*.java")))], javac_log) != 0:
            self.checks.fail(f"behaviour {name}: javac --release {release} failed",
                             indented(commands.read_text(javac_log), 20))
            return
        programs = [path.stem for path in sorted(src.glob("*.java"))]

        for variant in VARIANTS:
            out = directory / variant
            done = self.instrument(f"behaviour {name} {variant}", out, variant, [classes])
            if not done:
                continue
            self.deterministic(f"behaviour {name} {variant}", out, variant, [classes])
            marker = MARKERS[variant]
            if not any(marker in path.read_bytes() for path in out.glob("*.class")):
                self.checks.fail(f"behaviour {name} {variant}: no class refers to {marker.decode()}, "
                                 f"nothing was rewritten: {done[1]}")
            report = directory / f"{variant}.verify.txt"
            text, _ = commands.output(self.harness.hotspot(jdk / "bin" / "java", "--cp", self.runtime, "--report",
                                                           report, "--tsv", directory / f"{variant}.verify.tsv",
                                                           out), timeout=self.limit)
            last = text.splitlines()[-1] if text.splitlines() else ""
            self.checks.check(bool(_VERIFIED.match(last)), f"behaviour {name} {variant} verify: {last}",
                              f"behaviour {name} {variant} verify: {last} (report: {report})",
                              indented(commands.read_text(report), 30))
        if (directory / "pad.log").is_file() and "BigMethod" in programs:
            self.big_method(name, directory)

        for program in programs:
            self.run_program(jdk / "bin" / "java", classes, program, directory / f"{program}.plain")
            for variant in VARIANTS:
                if not (directory / variant).is_dir() or (variant != "profile" and program in PROFILE_ONLY):
                    continue
                self.same_output(name, directory, program, variant, jdk)
        self.checks.info(f"TIME behaviour {name}: {watch}s")

    def big_method(self, name, directory):
        """BigMethod.big is kept unrewritten, with a warning, when padded only."""
        pad = [line for line in commands.read_text(directory / "pad.log").splitlines() if "BigMethod" in line]
        stress = [line for line in commands.read_text(directory / "stress.log").splitlines() if "BigMethod" in line]
        warned = any(re.match(r"warning: .*BigMethod\.big\(I\)J: .*65535", line) for line in pad)
        if warned and not any(line.startswith("warning: ") for line in stress):
            self.checks.pass_(f"behaviour {name} BigMethod kept unrewritten only when padded: {pad[0][:160]}")
        else:
            lines = [f"{directory / 'stress.log'}:{line}" for line in stress] + \
                    [f"{directory / 'pad.log'}:{line}" for line in pad]
            self.checks.fail(f"behaviour {name} BigMethod: expected a size warning with --pad {PAD} only",
                             indented("\n".join(lines), 5))

    def same_output(self, name, directory, program, variant, jdk):
        """PROGRAM rewritten by VARIANT prints what it prints plain (and writes a profile when profiled)."""
        profile = directory / f"{program}.jpprof"
        profile.unlink(missing_ok=True)
        plain, rewritten = directory / f"{program}.plain", directory / f"{program}.{variant}"
        self.run_program(jdk / "bin" / "java", f"{directory / variant}:{self.runtime}", program, rewritten,
                         f"-Djp.output={profile}")
        if variant == "profile" and not (profile.is_file() and profile.stat().st_size > 0):
            self.checks.fail(f"behaviour {name} {program} profile: no profile written")
        out = commands.read_text(f"{plain}.out")
        if out == commands.read_text(f"{rewritten}.out") and \
                commands.read_text(f"{plain}.err") == commands.read_text(f"{rewritten}.err"):
            self.checks.pass_(f"behaviour {name} {program} {variant}: {out.count(chr(10))} lines, "
                              f"{out.splitlines()[-1]}")
        else:
            details = ""
            for stream in ("out", "err"):
                diff, _ = commands.output(["diff", f"{plain}.{stream}", f"{rewritten}.{stream}"])
                details += indented(diff, 10, f"    {stream}: ")
            self.checks.fail(f"behaviour {name} {program} {variant}: output differs from the plain run", details)

    # -- (b) verification -------------------------------------------------------------------------

    def verifiers(self):
        """The verifiers as (kind, JVM name, java): for every variant, and for the padded one.
        HotSpot 17 cannot read the corpus's Java 21 classes (it counts them as skipped); Temurin 25
        reads them all."""
        jdk17 = [("hotspot", "jdk17", self.java17)]
        if not self.temurin:
            return jdk17, jdk17
        temurin = [("hotspot", "temurin25", self.temurin / "bin" / "java"),
                   ("classfile", "temurin25", self.temurin / "bin" / "java")]
        return jdk17 + temurin, temurin

    def verifier(self, kind, java, prefix, args):
        """The command of verifier KIND on JAVA, writing PREFIX.txt and PREFIX.tsv."""
        run = {"hotspot": self.harness.hotspot, "classfile": self.harness.classfile}[kind]
        return run(java, "--report", f"{prefix}.txt", "--tsv", f"{prefix}.tsv", *args)

    def baseline(self, kind, java, prefix, args):
        """The verifier's findings on the original classes; False after a FAIL line."""
        status = commands.run_logged(self.verifier(kind, java, prefix, args), f"{prefix}.summary", timeout=self.limit)
        if status != 0:
            self.checks.fail(f"baseline {prefix}: the verifier exited {status}",
                             indented(commands.read_text(f"{prefix}.summary"), 20))
        return status == 0

    def verifier_check(self, name, kind, java, before, prefix, args):
        """Runs one verifier on the rewritten classes and compares its findings with BEFORE's."""
        watch = commands.Stopwatch()
        summary, status = commands.output(self.verifier(kind, java, prefix, args), timeout=self.limit)
        if status != 0:
            self.checks.fail(f"{name}: the verifier exited {status} in {watch}s", indented(summary, 20))
            return
        compare, compared = commands.stdout_of(self.harness.compare(self.java17, before, f"{prefix}.tsv"))
        kinds = [line.split("\t")[1] for line in commands.read_text(before).splitlines() if line.count("\t") >= 1]
        after = next((line for line in summary.splitlines() if line.startswith("verify: ")), "")
        last = compare.splitlines()[-1] if compare.splitlines() else ""
        line = (f"{name} in {watch}s: before: {kinds.count('verify')} verify errors, {kinds.count('other')} other "
                f"failures; after: {after}; {last}")
        self.checks.check(compared == 0, line, f"{line} (reports: {str(before)[:-len('.tsv')]}.txt, {prefix}.txt)",
                          indented(compare, 40))

    def serial_check(self, name, directory, cp, before_roots, after_roots):
        """The serialVersionUID of every serializable class is the same before and after (classes
        that cannot be loaded on either side are left out, and counted)."""
        watch = commands.Stopwatch()
        sides = []
        for side, roots in (("before", before_roots), ("after", after_roots)):
            # Lines are keyed by the root's position, the same before and after.
            with open(directory / f"serial-{side}.err", "wb") as err:
                uids, _ = commands.stdout_of(self.harness.serial_uids(self.java17, *cp, *roots), err, self.limit)
            lines = files.sorted_lines(uids)
            files.write_lines(directory / f"serial-{side}.tsv", lines)
            sides.append(lines)
        both = [row for row in files.join(*sides) if not row[1].startswith("error") and not row[2].startswith("error")]
        differing = ["\t".join(row) for row in both if row[1] != row[2]]
        skipped = len(sides[0]) - len(both)
        if not differing and both:
            self.checks.pass_(f"{name} serialVersionUID in {watch}s: {len(both)} serializable classes keep their "
                              f"value ({skipped} not loadable, left out)")
        else:
            self.checks.fail(f"{name} serialVersionUID: {len(differing)} of {len(both)} classes changed",
                             indented("\n".join(differing), 10))

    def old_asm_check(self, name, directory, before_roots, after_roots):
        """Every class that an old bytecode tool (ASM API level 5 visitors, as Mockito 2's inline mock
        maker has; OldAsmRead.java) reads before instrumentation, it also reads after. Needs the
        corpus's ASM jar."""
        watch = commands.Stopwatch()
        asm = sorted(self.corpus.glob("asm-9*.jar"))
        classes = self.work / "old-asm"
        if not asm:
            self.checks.fail(f"{name} old ASM readers: no ASM jar in the corpus")
            return
        cp = f"{classes}:{asm[0]}:{self.harness.hotspot_cp}"
        if not (classes / "OldAsmRead.class").is_file():
            classes.mkdir(parents=True, exist_ok=True)
            javac = [str(self.jdk17 / "bin" / "javac"), "-nowarn", "-d", str(classes), "-cp", cp,
                     str(verify.SOURCES / "OldAsmRead.java")]
            if commands.run_passing(javac) != 0:
                self.checks.fail(f"{name} old ASM readers: OldAsmRead does not compile")
                return
        sides = []
        for side, roots in (("before", before_roots), ("after", after_roots)):
            read, _ = commands.stdout_of([str(self.java17), "-cp", cp, "OldAsmRead", *map(str, roots)])
            lines = files.sorted_lines(read)
            files.write_lines(directory / f"old-asm-{side}.tsv", lines)
            sides.append(lines)
        broken = ["\t".join(row) for row in files.join(*sides) if row[1] == "ok" and row[2] != "ok"]
        after = sides[1]
        if not broken and after:
            read = sum(1 for line in after if line.endswith("\tok"))
            self.checks.pass_(f"{name} old ASM readers in {watch}s: {read} of {len(after)} classes read by API 5 "
                              f"visitors, none lost")
        else:
            self.checks.fail(f"{name} old ASM readers: {len(broken)} classes readable before are not after",
                             indented("\n".join(broken), 5))

    def verify_corpus(self, name, originals, options, pad_roots, pad_skip_reason):
        """Checks ORIGINALS (jars or directories) with every verifier, then rewrites them with each
        variant and checks the output against those baselines; the padded variant only rewrites
        PAD_ROOTS (padding every method by 40 KB makes both jp and the verifiers slow) and checks
        them with the padded run's verifiers. OPTIONS are the harness options (--separate, --cp)."""
        watch = commands.Stopwatch()
        directory = self.work / "verify" / name
        directory.mkdir(parents=True)
        every, padded = self.verifiers()
        for kind, java_name, java in every:
            if not self.baseline(kind, java, directory / f"before-{kind}-{java_name}", [*options, *originals]):
                return
        self.checks.info(f"TIME {name} baselines: {watch}s")

        for variant in VARIANTS:
            roots, selected = (pad_roots, padded) if variant == "pad" else (originals, every)
            if not roots:
                self.checks.info(f"SKIP {name} {variant}: {pad_skip_reason}")
                continue
            out = directory / variant
            done = self.instrument(f"{name} {variant}", out, variant, roots)
            if not done:
                continue
            self.checks.info(f"INFO {name} {variant}: {len(roots)} inputs, jp instrument in {done[0]}s: {done[1]}")
            self.deterministic(f"{name} {variant}", out, variant, roots)
            rewritten = [out if root.is_dir() else out / root.name for root in roots]
            for kind, java_name, java in selected:
                before = directory / f"before-{kind}-{java_name}.tsv"
                if len(roots) < len(originals):
                    # A subset of jars, each checked on its own (--separate): their lines of the baseline.
                    prefixes = tuple(f"{root.name}!" for root in roots)
                    subset = directory / f"before-{variant}-{kind}-{java_name}.tsv"
                    files.write_lines(subset, [line for line in commands.read_text(before).splitlines()
                                               if line.split("\t")[0].startswith(prefixes)])
                    before = subset
                self.verifier_check(f"{name} {variant} {kind}-{java_name}", kind, java, before,
                                    directory / f"after-{variant}-{kind}-{java_name}", [*options, *rewritten])
            if variant == "profile":
                self.serial_check(f"{name} {variant}", directory, ["--cp", options[-1]], roots, rewritten)
                self.old_asm_check(f"{name} {variant}", directory, roots, rewritten)
        self.checks.info(f"TIME {name}: {watch}s")

    def java_base(self):
        """The non-java/ classes of JDK 17's java.base, extracted once into the cache."""
        directory = build.cache_dir() / f"jdk17-java.base-{jdks.jdk_version(self.jdk17)}"

        def extract(partial):
            print(f"{PROGRAM}: extracting {self.jdk17}/jmods/java.base.jmod into {directory}", file=sys.stderr,
                  flush=True)
            extract = [str(self.jdk17 / "bin" / "jmod"), "extract", "--dir", str(partial / "jmod"),
                       str(self.jdk17 / "jmods" / "java.base.jmod")]
            if subprocess.run(extract, stdout=sys.stderr, stdin=subprocess.DEVNULL, check=False).returncode != 0:
                raise build.SuiteError("could not extract java.base")
            (partial / "jmod" / "classes").rename(partial / "classes")
            shutil.rmtree(partial / "jmod")
            shutil.rmtree(partial / "classes" / "java")

        return build.made_once(directory, extract) / "classes"

    def run(self):
        suite = commands.Stopwatch()
        watch = commands.Stopwatch()
        self.behaviour("java8-release8", BEHAVIOUR / "java8", 8, self.jdk17)
        self.behaviour("java8-release17", BEHAVIOUR / "java8", 17, self.jdk17)
        self.behaviour("java17-release17", BEHAVIOUR / "java17", 17, self.jdk17)
        if self.temurin:
            self.behaviour("java8-release25", BEHAVIOUR / "java8", 25, self.temurin)
            self.behaviour("java17-release25", BEHAVIOUR / "java17", 25, self.temurin)
            self.behaviour("java25-release25", BEHAVIOUR / "java25", 25, self.temurin)
        else:
            self.checks.skip("behaviour java8-release25, java17-release25, java25-release25: no Temurin 25")
        self.checks.info(f"TIME behaviour: {watch}s")

        if not self.temurin:
            self.checks.skip("hotspot-temurin25 and classfile-temurin25 checks: no Temurin 25")
        watch = commands.Stopwatch()
        self.corpus = build.fetch_corpus()
        jars = sorted(self.corpus.glob("*.jar"))
        if not jars:
            raise build.SuiteError(f"no jars in {self.corpus}")
        deps = ":".join(map(str, [*jars, self.runtime]))
        pad_roots = [self.corpus / f"{name}.jar" for name in PAD_JAR_NAMES if (self.corpus / f"{name}.jar").is_file()]
        self.verify_corpus("corpus", jars, ["--separate", "--cp", deps], pad_roots,
                           "none of the chosen jars is in the corpus")
        java_base = self.java_base()
        self.verify_corpus("jdk17-java.base", [java_base], ["--cp", str(self.runtime)], [java_base], "")
        self.checks.info(f"TIME verification: {watch}s")
        self.checks.info(f"TIME {PROGRAM}: {suite}s")
        self.checks.summary(PROGRAM)
        return self.checks.status()


def keep_reports(work):
    """Keeps WORK for a look at the failures, but padded directory outputs (java.base), about 1 GB
    each: rerunning jp gets them back."""
    for directory in (work / "verify").glob("*/*/"):
        if directory.is_dir() and sum(path.stat().st_size for path in files.files_under(directory)) > 200 * 1024 * 1024:
            shutil.rmtree(directory)
    print(f"{PROGRAM}: reports kept in {work}", flush=True)


def suite():
    work = pathlib.Path(tempfile.mkdtemp(prefix="jp-stress."))
    stress = None
    try:
        stress = Stress(work)
        return stress.run()
    finally:
        if stress and stress.checks.failed:
            keep_reports(work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    build.main(PROGRAM, suite)
