"""JP's overhead benchmark: how much slower real CPU-bound workloads, and a real test suite, run
when instrumented, next to other ways of profiling them. README.md beside this file explains the
options and the output.

    python3 integration-tests/perf/run.py [--quick] [h2|lucene|ecj|lang3-tests]...   (run.sh launches it)

It builds jp, jp-stress, the runtime jar and the drivers (src/perf/), fetches the workloads' jars
through pom.xml once and the test suite's as suites/testsuites.py does, rewrites them once per JP
variant, finds which other profilers can run here, then runs every configuration of every workload
and suite, interleaved, and prints three tables of medians.

Exit status: 0, also when the ratios are bad; 1 when a run failed, a checksum differed from the
baseline's or a test suite's results did; 2 when something could not be built or fetched. Timing
never fails the benchmark.
"""
import dataclasses
import hashlib
import os
import pathlib
import platform
import shutil
import sys
import xml.etree.ElementTree as ElementTree
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "lib"))
from jptest import build, commands, gc_log, jdks, published_suites, surefire  # noqa: E402
from overhead import configurations, identical, results, settings, suite_runs, tables  # noqa: E402

PROGRAM = "perf"
POM = HERE / "pom.xml"
# A jp.toml that turns every option recording more than calls and bytecodes off, explicitly.
OPTIONS_OFF = "[instrument]\nmetrics = []\nlines = false\ncall-sites = false\n"
# Where async-profiler's jar keeps the agent for each machine.
ASYNC_PROFILER_ARCH = {"x86_64": "linux-x64", "aarch64": "linux-arm64"}


def note(text):
    print(f"{PROGRAM}: {text}", flush=True)


def complain(text):
    print(f"{PROGRAM}: {text}", file=sys.stderr, flush=True)


def fetch_workloads(logs):
    """The workloads' jars, the commons-lang3 jar and sources and async-profiler, fetched once into
    a cache directory named by pom.xml's hash: editing the pom fetches anew, and a benchmark running
    meanwhile keeps its own. Returns that directory."""
    cache = build.cache_dir() / "perf" / hashlib.sha256(POM.read_bytes()).hexdigest()[:12]
    if (cache / ".complete").is_file():
        return cache
    note(f"fetching the workloads into {cache}")
    fetch = cache.with_name(f"{cache.name}.tmp.{os.getpid()}")
    shutil.rmtree(fetch, ignore_errors=True)
    log = logs / "fetch.log"
    groups = (("-DexcludeGroupIds=org.apache.commons,tools.profiler", "jars"),
              ("-DincludeGroupIds=org.apache.commons", "inputs"), ("-DincludeGroupIds=tools.profiler", "tools"))
    for group_filter, directory in groups:
        if commands.run_logged(["mvn", "-q", "-B", "-f", str(POM), "dependency:copy-dependencies", group_filter,
                                f"-DoutputDirectory={fetch / directory}"], log, append=True) != 0:
            print(commands.tail(log, 30), flush=True)
            shutil.rmtree(fetch, ignore_errors=True)
            raise build.SuiteError("could not fetch the workloads")
    try:
        sources = next((fetch / "inputs").glob("commons-lang3-*-sources.jar"))
        with zipfile.ZipFile(sources) as jar:
            jar.extractall(fetch / "inputs" / "lang3-sources",
                           [name for name in jar.namelist() if not name.startswith("META-INF/")])
    except (StopIteration, OSError, zipfile.BadZipFile) as error:
        shutil.rmtree(fetch, ignore_errors=True)
        raise build.SuiteError("could not unpack the commons-lang3 sources") from error
    (fetch / ".complete").touch()
    try:
        fetch.rename(cache)
    except OSError:  # another benchmark got there first
        shutil.rmtree(fetch, ignore_errors=True)
    if not (cache / ".complete").is_file():
        raise build.SuiteError(f"could not fetch the workloads into {cache}")
    return cache


class Benchmark:
    def __init__(self, options, work):
        self.options = options
        self.work = work
        self.logs = work / "logs"
        self.logs.mkdir()
        self.java, self.javac = jdks.default_java_and_javac()
        self.jdk = jdks.default_home()
        self.failed = False
        self.times = results.Times()
        self.configurations = []
        self.async_library = self.async_event = None
        # Each test suite's Library, working directory and configurations, by name.
        self.suites = {}
        # What the check that options cost nothing when off found (nothing_when_off), for the header.
        self.off_note = ""

    def prepare(self):
        """Builds and fetches what the runs need; finds the configurations that can run here."""
        work = self.work
        # Copies, so that a build running meanwhile elsewhere cannot change them under the benchmark.
        self.jp = shutil.copy(build.build_binary("jp-cli", "jp"), work)
        self.jp_stress = shutil.copy(build.build_binary("jp-stress", "jp-stress"), work)
        self.runtime = shutil.copy(build.build_runtime(self.logs, test_classes=False), work / "jp-runtime.jar")
        self.cache = fetch_workloads(self.logs)
        if "async-profiler" in self.options.alternatives:
            self.async_library, self.async_event = self.async_profiler()
            if not self.async_event:
                note("async-profiler cannot run here: skipped")
        if self.options.workloads:
            self.prepare_workloads()
        for suite in self.options.suites:
            self.prepare_suite(suite)

    def prepare_workloads(self):
        """The drivers compiled, and the workloads' configurations: the library jars and the drivers
        rewritten once per JP variant."""
        work = self.work
        self.lib_jars = sorted(str(jar) for jar in (self.cache / "jars").glob("*.jar"))
        self.lang3_jar = next((str(jar) for jar in sorted((self.cache / "inputs").glob("commons-lang3-*.jar"))
                               if not jar.name.endswith("-sources.jar")), "")
        self.drivers = work / "drivers"
        self.drivers.mkdir()
        libs = ":".join(self.lib_jars)
        if commands.run_passing([self.javac, "--release", "17", "-nowarn", "-cp", libs, "-d", str(self.drivers),
                                 *map(str, sorted((HERE / "src" / "perf").glob("*.java")))]) != 0:
            raise build.SuiteError("the drivers do not compile")

        plain = f"{self.drivers}:{libs}"
        self.configurations = [
            configurations.baseline(plain),
            *(self.jp_variant(variant, [*self.lib_jars, str(self.drivers)], variant.name)
              for variant in self.options.variants),
            *filter(None, (self.alternative(name, plain) for name in self.options.alternatives))]

    def prepare_suite(self, suite):
        """SUITE's jars, its tests' resources unpacked where they look, and its configurations: the
        library's main jar rewritten once per JP variant, as a build's jpProfileTest rewrites the
        main classes; the tests and what they need stay as published. The JVMTI tracer is left out:
        it would interpret the whole suite, for hours."""
        library = published_suites.library_jars(suite.library, published_suites.fetch(suite.library))
        self.launcher = published_suites.console_launcher()
        cwd = self.work / suite.name / "cwd"
        published_suites.unpack_resources(library.tests, cwd)
        plain = published_suites.classpath(library.main, library.others)
        suite_configurations = [
            configurations.baseline(plain),
            *(self.jp_variant(variant, [str(library.main)], f"{suite.name}-{variant.name}", library.others)
              for variant in self.options.variants),
            *filter(None, (self.alternative(name, plain) for name in self.options.alternatives if name != "jvmti"))]
        self.suites[suite.name] = (library, cwd, suite_configurations)

    # -- configurations ---------------------------------------------------------------------------

    def jp_variant(self, variant, inputs, label, uninstrumented=""):
        """Rewrites INPUTS once for VARIANT into the directory LABEL (its log instrument-LABEL.log);
        returns its configuration, the class path UNINSTRUMENTED after its own."""
        out = self.work / label
        rewriter = [self.jp_stress] if variant.stress else [variant.engine or self.jp, "instrument"]
        log = self.logs / f"instrument-{label}.log"
        if commands.run_logged([*rewriter, *inputs, "--out", str(out), *variant.flags], log) != 0:
            print(commands.read_text(log), end="", flush=True)
            raise build.SuiteError(f"jp instrument failed for variant {variant.name} ({' '.join(variant.flags)})")
        if not self.off_note and not (variant.stress or variant.engine or variant.records_options()):
            self.nothing_when_off(variant, inputs, label, out)
        return configurations.jp_variant(variant, out, variant.runtime or self.runtime, uninstrumented)

    def nothing_when_off(self, variant, inputs, label, out):
        """Rewrites VARIANT's INPUTS again with a jp.toml that turns every extra metric, per-line
        counts and call sites off explicitly (OPTIONS_OFF): what they cost when off is nothing only
        if every class is byte for byte the one of the first rewrite, in OUT."""
        config = self.work / "options-off.toml"
        config.write_text(OPTIONS_OFF)
        again = self.work / f"{label}-options-off"
        log = self.logs / f"instrument-{label}-options-off.log"
        if commands.run_logged([self.jp, "instrument", *inputs, "--out", str(again), *variant.flags,
                                "--config", str(config)], log) != 0:
            print(commands.read_text(log), end="", flush=True)
            raise build.SuiteError(f"jp instrument --config {config.name} failed for variant {variant.name}")
        classes, differing = identical.compare(out, again)
        shutil.rmtree(again)
        what = f"variant {variant.name} rewritten again with {' '.join(OPTIONS_OFF.split())}"
        if differing:
            self.fail(f"{what}: {len(differing)} files or entries differ, first {', '.join(differing[:5])}")
            self.off_note = f"options off: {what}: DIFFERENT"
        else:
            self.off_note = f"options off: {what}: all {classes} classes byte-identical"

    def alternative(self, name, classpath):
        """The configuration of the profiler NAME, or None when it cannot run here."""
        if name == "jfr":
            return configurations.jfr(classpath, self.work)
        if name == "async-profiler":
            if not self.async_event:
                return None
            return configurations.async_profiler(classpath, self.work, self.async_library, self.async_event)
        library = self.jvmti_tracer()
        if not library:
            note("the JVMTI tracer cannot be built here (needs gcc and $JAVA_HOME/include/jvmti.h): skipped")
            return None
        return configurations.jvmti(classpath, library, self.options.tracer_timeout)

    def async_profiler(self):
        """async-profiler's agent from its jar, and the first event it can sample here (cpu uses
        perf_events; itimer is the fallback where the kernel refuses them); (None, None) if none."""
        arch = ASYNC_PROFILER_ARCH.get(platform.machine())
        jars = sorted((self.cache / "tools").glob("async-profiler-*.jar"))
        if not arch or not jars:
            return None, None
        member = f"{arch}/libasyncProfiler.so"
        try:
            with zipfile.ZipFile(jars[0]) as jar:
                library = jar.extract(member, self.work)
        except (KeyError, OSError, zipfile.BadZipFile):
            return None, None
        for event in ("cpu", "itimer"):
            log = self.logs / f"async-check-{event}.log"
            status = commands.run_logged([self.java, f"-agentpath:{library}=start,event={event},"
                                          f"file={self.logs / 'async-check.txt'}", "-version"], log)
            if status == 0 and "error" not in commands.read_text(log).lower():
                return library, event
        return None, None

    def jvmti_tracer(self):
        """The JVMTI tracer built with ${CC:-gcc} against the JDK's headers, or None."""
        compiler = os.environ.get("CC") or "gcc"
        library = self.work / "libjvmti_tracer.so"
        if not (self.jdk / "include" / "jvmti.h").is_file() or not shutil.which(compiler):
            return None
        status = commands.run_logged([compiler, "-O2", "-std=gnu11", "-shared", "-fPIC", f"-I{self.jdk}/include",
                                      f"-I{self.jdk}/include/linux", "-o", str(library),
                                      str(HERE / "tracer" / "jvmti_tracer.c")], self.logs / "tracer-build.log")
        return library if status == 0 else None

    # -- runs -------------------------------------------------------------------------------------

    def header(self):
        version = commands.output([self.java, "-version"])[0].splitlines()
        note(f"{version[0] if version else 'java -version printed nothing'} ({shutil.which(self.java) or self.java})")
        cpuinfo = commands.read_text("/proc/cpuinfo").splitlines()
        cpu = next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), "")
        load = " ".join(commands.read_text("/proc/loadavg").split()[:3])
        note(f"{len(os.sched_getaffinity(0))} cores (nproc), {cpu or 'unknown cpu'}, "
             f"{platform.system()} {platform.machine()}, load average {load}")
        rounds = self.options.iterations or "the workload's default"
        workloads = f"; inputs: {self.options.size}; measured rounds: {rounds}" if self.options.workloads else ""
        note(f"{self.options.runs} interleaved run(s) per configuration{workloads}")
        for suite in self.options.suites:
            library = self.suites[suite.name][0]
            classes = suite.quick_classes if self.options.size == "small" else "every *Test class"
            note(f"test suite {suite.name}: {library.tests.name} ({classes}); the variants rewrite "
                 f"{library.main.name} alone, the tests run as published")
        labels = [*([""] if self.options.workloads else []), *(f"{suite.name}-" for suite in self.options.suites)]
        for variant in self.options.variants:
            for label in labels:
                lines = commands.read_text(self.logs / f"instrument-{label}{variant.name}.log").splitlines()
                note(f"variant {variant.name}{' on ' + label[:-1] if label else ''}: jp instrument "
                     f"{variant.shown_flags()}: {lines[-1] if lines else ''}")
                for warning in [line for line in lines if line.startswith("warning")][:3]:
                    print(f"{PROGRAM}:   {warning}", flush=True)
        if self.off_note:
            note(self.off_note)
        suite_configurations = [configuration for _, _, listed in self.suites.values() for configuration in listed]
        # A note once, though workloads and suites share the configuration it is about.
        for header_note in dict.fromkeys(configuration.header_note
                                         for configuration in [*self.configurations, *suite_configurations]):
            if header_note:
                note(header_note)

    def run_once(self, workload, configuration, index):
        """Runs one JVM: WORKLOAD in CONFIGURATION, run INDEX; returns its results.Run."""
        log = self.logs / f"{workload.name}-{configuration.name}-{index}"
        args = [self.java, "-Xms1g", "-Xmx1g", gc_log.option(f"{log}.gc"), *self.options.java_options,
                *configuration.options(workload.name, index),
                f"-Dperf.size={self.options.size}", f"-Dperf.sources={self.cache / 'inputs' / 'lang3-sources'}",
                f"-Dperf.classpath={self.lang3_jar}", "-cp", configuration.classpath, workload.main_class]
        if self.options.iterations:
            args.append(self.options.iterations)
        if self.options.cpus:
            args = ["taskset", "-c", self.options.cpus, *args]
        watch = commands.Stopwatch()
        measured = commands.run_measured(args, f"{log}.out", f"{log}.err", timeout=configuration.time_limit)
        run = results.read_run(measured.status, watch.milliseconds(), commands.read_text(f"{log}.out"))
        return with_memory(run, measured, log)

    def fail(self, text, err_log=None):
        complain(text)
        if err_log:
            last = commands.tail(err_log, 8)
            if last:
                print(last, file=sys.stderr, flush=True)
        self.failed = True

    def measure(self, workload):
        """Every run of WORKLOAD: round after round, each configuration once per round."""
        print(f"{PROGRAM}: {workload.name} ...", flush=True)
        checksums = results.Checksums()
        rounds = self.options.runs
        for index in range(rounds):
            for configuration in self.configurations:
                if not configuration.runs_in_round(index, rounds):
                    continue
                run = self.run_once(workload, configuration, index)
                if not run.ok:
                    if configuration.once_with_bound and run.timed_out:
                        self.times.add_bound(workload.name, configuration.name, run)
                        continue
                    self.fail_run(workload.name, configuration, run,
                                  self.logs / f"{workload.name}-{configuration.name}-{index}.err")
                    continue
                self.keep(workload.name, configuration, index, run, checksums.mismatch(configuration.name, run.checksum))

    def fail_run(self, name, configuration, run, log):
        self.fail(f"{name} {configuration.name}: the run failed{' (timed out)' if run.timed_out else ''}; "
                  "its last lines:", log)

    def keep(self, name, configuration, index, run, mismatch):
        """Keeps the times of RUN, run INDEX of the workload or suite NAME in CONFIGURATION, unless
        MISMATCH says why its output differs from the baseline's; fails it without its profile."""
        where = f"{name} {configuration.name}"
        if mismatch:
            self.fail(f"{where}: {mismatch}")
            return
        if configuration.profile:
            profile = configuration.profile(name, index)
            if not profile.is_file() or profile.stat().st_size == 0:
                self.fail(f"{where}: no profile written (-Djp.output)")
        self.times.add(name, configuration.name, run)

    def run_suite_once(self, suite, configuration, index):
        """Runs SUITE's tests in CONFIGURATION, run INDEX; returns its results.Run and, when it ran
        to the end, its tests' results (surefire.results), also written to its log's .results."""
        library, cwd, _ = self.suites[suite.name]
        log = self.logs / f"{suite.name}-{configuration.name}-{index}"
        classes = suite.quick_classes if self.options.size == "small" else published_suites.SUREFIRE_CLASSES
        args = published_suites.console_command(
            self.java, self.launcher, configuration.classpath, library.tests, f"{log}.reports",
            [gc_log.option(f"{log}.gc"), *self.options.java_options,
             *configuration.options(suite.name, index)], classes)
        if self.options.cpus:
            args = ["taskset", "-c", self.options.cpus, *args]
        watch = commands.Stopwatch()
        measured = commands.run_measured(args, f"{log}.log", cwd=cwd, timeout=configuration.time_limit)
        run = suite_runs.read_run(measured.status, watch.milliseconds(), commands.read_text(f"{log}.log"))
        run = with_memory(run, measured, log)
        if not run.ok:
            return run, None
        try:
            tests = surefire.results(f"{log}.reports")
        except (ElementTree.ParseError, OSError) as error:  # the launcher ended without its reports
            with open(f"{log}.log", "a") as out:
                print(f"{PROGRAM}: {error}", file=out)
            return dataclasses.replace(run, ok=False), None
        pathlib.Path(f"{log}.results").write_text("".join(f"{line}\n" for line in tests))
        return run, tests

    def measure_suite(self, suite):
        """Every run of SUITE, interleaved as measure() does; each must pass, fail and skip the same
        tests as the baseline's first run."""
        print(f"{PROGRAM}: {suite.name} ...", flush=True)
        expected = results.Checksums("the set of test results", lambda tests: f"({surefire.results_counts(tests)})")
        for index in range(self.options.runs):
            for configuration in self.suites[suite.name][2]:
                run, tests = self.run_suite_once(suite, configuration, index)
                log = self.logs / f"{suite.name}-{configuration.name}-{index}.log"
                if not run.ok:
                    self.fail_run(suite.name, configuration, run, log)
                    continue
                self.keep(suite.name, configuration, index, run, expected.mismatch(configuration.name, tests))
        if expected.expected is not None:
            note(f"{suite.name}: the baseline's tests: {surefire.results_counts(expected.expected)}")

    def run(self):
        self.prepare()
        self.header()
        for workload in self.options.workloads:
            self.measure(workload)
        for suite in self.options.suites:
            self.measure_suite(suite)
        # Each variant that others extend, with those: their times over its show what options cost.
        options = settings.extended(self.options.variants)
        if self.options.workloads:
            names = [configuration.name for configuration in self.configurations]
            workloads = [workload.name for workload in self.options.workloads]
            for line in [*tables.tables(self.times, workloads, names, self.options.runs),
                         *tables.option_tables(self.times, workloads, options, self.options.runs),
                         *tables.memory_tables(self.times, workloads, names, self.options.runs)]:
                print(line)
        for suite in self.options.suites:
            names = [configuration.name for configuration in self.suites[suite.name][2]]
            for line in [*tables.suite_table(self.times, [suite.name], names, self.options.runs),
                         *tables.option_tables(self.times, [suite.name], options, self.options.runs),
                         *tables.memory_tables(self.times, [suite.name], names, self.options.runs)]:
                print(line)
        print()
        if self.failed:
            print(f"{PROGRAM}: FAILED: a run failed, computed a different checksum or gave other test results "
                  "(logs above)", flush=True)
            return 1
        print(f"{PROGRAM}: all runs computed the baseline's checksums and gave the baseline's test results",
              flush=True)
        return 0



def with_memory(run, measured, log):
    """RUN with the peak heap of its GC log (LOG.gc), and the peak RSS and CPU time MEASURED."""
    return dataclasses.replace(run, peak_heap_mb=gc_log.peak_heap_mb(commands.read_text(f"{log}.gc")),
                               peak_rss_mb=measured.peak_rss_kb / 1024, cpu_ms=measured.cpu_seconds * 1000)


def benchmark():
    try:
        options = settings.parse(sys.argv[1:], os.environ)
    except settings.SettingsError as error:
        raise build.SuiteError(error) from error
    return build.in_scratch(PROGRAM, "jp-perf.", lambda work: Benchmark(options, work).run(), keep=options.keep)


if __name__ == "__main__":
    build.main(PROGRAM, benchmark)
