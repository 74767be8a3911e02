"""The maven-plugin suite: the plugin jp-maven-plugin (maven-plugin/, docs/maven.md) in real builds,
with the `mvn` on PATH (Debian's 3.8.7 here).

  1. builds the plugin and the engine with Maven (and `jp` with cargo, to read profiles) and puts
     JP's artifacts into a throwaway local Maven repository, as `mvn install` lays them out;
     other artifacts come from the user's local repository, read as a file:// repository, and
     only what is missing there from Maven Central; the builds after the first run offline (-o);
  2. the two demos' sources are equal copies (no links); a plain copy (cp -r) of
     examples/maven-demo: `mvn verify` passes its tests on instrumented classes, the profile's
     hottest context is the quadratic sort, jp:report writes the report, and the packaged jar
     holds the compiler's classes, byte for byte; two builds at once in one project each write a
     run of profiles of their own and report it alone;
  2b. sampled time: `mvn -Djp.jfr=true verify` on a copy of the demo records JFR into the run of
     profiles' jfr/, and jp:report's report.txt totals the CPU samples, labelled sampled, beside the
     demo's calls;
  2b'. allocation counts: `mvn -Djp.metrics=allocations verify` on a copy of the demo instruments
     with allocation counts, and jp:report's report.txt totals the allocations, labelled exact,
     beside the demo's calls; `jp:baseline -Djp.baselineMetric=allocations` records allocations,
     and jp:check gates them;
  2c. per-test contexts: in the demo's profiles every test is a top-level context, run once, with
     its set-up inside; three builds give identical per-test totals; in a JUnit 5 project
     (integration-tests/maven/params-demo) a parameterized test's invocations are told apart; in a
     TestNG project (integration-tests/maven/testng-demo) each test method invocation has its
     context with its @BeforeMethod, a data provider's rows are told apart, @BeforeClass counts
     under the class, and two runs give identical per-test totals;
  2d. the site report: `mvn site` with the plugin in <reporting> (maven-site-plugin 3.12.1, on
     Doxia 1, and 3.21.0, on Doxia 2) lists the JP report in project-reports.html, linking
     jp/index.html, which is there; with no profiles there is no link;
  2e. a one-off run: on a copy of the demo whose POM names nothing of JP's,
     `mvn org.jpprof:jp-maven-plugin:<version>:profile package` profiles the tests with the calls
     and bytecodes of the configured demo's run, and the jar keeps the compiler's classes;
  3. jp:ide: the printed class path runs the application instrumented; the IntelliJ IDEA and
     Eclipse run configurations in .run/ parse, and java with exactly the class path and JVM
     options of each application configuration runs it instrumented; -Djp.ideFiles=false
     writes none;
  4. incremental work: a second `mvn jp:instrument` rewrites nothing; an edited class is the only
     one rewritten and the output equals a clean build's byte for byte; a deleted class loses
     its output; -Djp.skip skips with a message and the tests run on the compiler's classes;
  5. a generated multi-module reactor (app depending on core) built with `mvn -T 2 verify
     jp:report`: each module profiled on its own instrumented classes, one report of both; the
     same with one jpDirectory for both modules and -T 4: refused, naming the module that has it;
  5b. integration-tests/maven/reactor-demo (app's test calls core): under `mvn test jp:report` and
     `mvn verify jp:report`, app's tests run core's classes instrumented (from core/target/classes,
     then from core's jar), so app's report has core's Fib.fib with the counts of core's report;
     core's jar keeps the compiler's classes; -Djp.reactorDependencies=false switches it off;
     the one-off jp:profile on a copy without JP in its POMs gives app the same counts;
  6. two builds in a row in one JVM (Maven embedded twice, integration-tests/maven/EmbeddedTwice.java),
     the second loading the plugin, and the engine's library, in a new class loader;
  6b. the regression gate: jp:baseline writes jp-baseline.txt, byte-identical over two clean
     runs; jp:check passes on the same code, fails naming Leaderboard.rank with its numbers once
     it does more work, and names the diff report of the profiles jp:baseline kept against the
     run (or, without them, says how to get one); passes with a tolerance for it in the POM and
     once reverted; a baseline of other settings is refused and a missing one explained;
  7. bad input: sources without classes, a wrong agent or granularity, a corrupt class or
     jp.toml fail jp:instrument, and a corrupt profile jp:report, with a message naming the
     directory, setting or file, and no JVM crashes (no hs_err file); empty items in
     -Djp.includes are left out.

Prints PASS/FAIL/SKIP lines; exits 1 if a check failed, 2 if the suite could not run. The work
directory is kept when a check fails. JP_MAVEN_USER_REPO names the local repository read as a
remote one (~/.m2/repository).
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import zipfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from jptest import build, commands, files, surefire  # noqa: E402
from jptest.commands import first_match, found, read_text as text  # noqa: E402
from jptest.plugin_checks import NamedChecks, PluginChecks, complete_page, no_crash, ranks_rank_first, shown, \
    squeezed, testng_version  # noqa: E402

PROGRAM = "maven-plugin.py"
SUITE = "maven-plugin"
ROOT = build.ROOT
DEMO_SOURCES = ROOT / "examples" / "maven-demo"
MAVEN_PROJECTS = ROOT / "integration-tests" / "maven"
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
# A method as the text report names it: its short name, then its package.
FIB = "Fib.fib(int) [org.acme.core]"


def edit(path, old, new, count=-1):
    """Replaces OLD with NEW in the file at PATH (the first COUNT times, all when -1)."""
    path = pathlib.Path(path)
    path.write_text(path.read_text().replace(old, new, count))


def dirs(pattern_root, pattern):
    return sorted(path for path in pathlib.Path(pattern_root).glob(pattern) if path.is_dir())


def profiles(directory, pattern="*.jpprof"):
    return sorted(pathlib.Path(directory).glob(pattern))


def unjar(jar, out, members=None):
    """Extracts the jar JAR (only MEMBERS when given) into OUT; whether it could."""
    try:
        with zipfile.ZipFile(jar) as archive:
            archive.extractall(out, members)
        return True
    except (OSError, KeyError, zipfile.BadZipFile):
        return False


def class_count(jar):
    with zipfile.ZipFile(jar) as archive:
        return len([name for name in archive.namelist() if name.endswith(".class")])


def method_column(row):
    """The method of a split row of a hot-methods table, without the recursion mark `R`."""
    return " ".join(row[7:] if row[6:7] == ["R"] else row[6:])


def hot_methods(report):
    """Method, own bytecodes and calls of each row of a report.txt's hot-methods table, sorted."""
    lines = text(report).splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("== Hot methods")), None)
    if start is None:
        return []
    rows = [line.split() for line in lines[start + 4:]]
    return sorted(f"{method_column(row)} {row[0]} {row[4]}" for row in rows if len(row) >= 7)


def fib_hot(report):
    """Own bytecodes, calls and contexts of Fib.fib, from a report.txt's hot-methods table, or ""."""
    lines = text(report).splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("== Hot methods")), None)
    for row in ([] if start is None else [line.split() for line in lines[start:]]):
        if method_column(row) == FIB:
            return " ".join(row[i] if i < len(row) else "" for i in (0, 4, 5))
    return ""


def without_jp(pom_lines):
    """The demo's POM without JP: no JP plugin, no Surefire <classesDirectory> and listener, no
    jp.version."""
    out, in_plugin, in_surefire = [], False, False
    for line in pom_lines:
        if in_plugin:
            in_plugin = "</plugin>" not in line
            continue
        if "<!-- JP: instrument" in line:
            in_plugin = True
            continue
        if in_surefire:
            in_surefire = "</properties>" not in line
            continue
        if "<classesDirectory>" in line:
            in_surefire = True
            continue
        if "<jp.version>" not in line:
            out.append(line)
    return out


def reactor_without_jp(pom_lines):
    """The reactor demo's POM without the <plugin> of org.jpprof and Surefire's <classesDirectory>."""
    out, held, skipping = [], None, False
    for line in pom_lines:
        if line.endswith("<plugin>"):
            held = line
            continue
        if held is not None:
            if "org.jpprof" in line:
                skipping = True
            else:
                out.append(held)
            held = None
        if skipping:
            skipping = "</plugin>" not in line
            continue
        if "<classesDirectory>" not in line:
            out.append(line)
    return out


def names_jp(pom):
    """The lines of a POM that still name JP."""
    return [line for line in text(pom).splitlines() if re.search(r"jpprof|\$\{jp.", line)]


class MavenPlugin:
    def __init__(self, work):
        self.work = work
        self.checks = NamedChecks(SUITE)
        if not shutil.which("mvn"):
            raise build.SuiteError("no mvn on PATH")
        self.version = build.root_version()
        if not self.version:
            raise build.SuiteError(f"no version in {ROOT / 'pom.xml'}")
        self.repo = work / "m2"
        self.settings = work / "settings.xml"
        self.online = True
        self.jp = build.build_jp()
        self.plugin = PluginChecks(self.checks, self.jp, work, self.version)
        maven = _COLOUR.sub("", commands.output(["mvn", "-v"])[0])
        self.maven_version = next((line.split()[2] for line in maven.splitlines()
                                   if line.startswith("Apache Maven")), "")
        self.maven_home = next((line[len("Maven home: "):] for line in maven.splitlines()
                                if line.startswith("Maven home: ")), "")

    # -- builds -----------------------------------------------------------------------------------

    def log(self, name):
        return self.work / f"{name}.log"

    def install(self):
        """Packages the plugin and the engine and puts them into the throwaway repository, with
        settings that read the user's local repository as a remote one."""
        mvn_log = self.log("mvn")
        if commands.run_logged(["mvn", "-q", "-B", "-f", str(ROOT / "pom.xml"), "package", "-DskipTests",
                                "-pl", "maven-plugin", "-am"], mvn_log) != 0:
            print(shown(mvn_log, 40), end="", flush=True)
            raise build.SuiteError("mvn package failed")
        user_repo = os.environ.get("JP_MAVEN_USER_REPO") or str(pathlib.Path.home() / ".m2" / "repository")
        script = 'source scripts/lib/jp-repo.sh && install_jp "$1" "$version" parent engine maven-plugin && ' \
                 'write_maven_settings "$2" "$3"'
        env = dict(os.environ, root=str(ROOT), version=self.version)
        if subprocess.run(["bash", "-c", script, "jp-repo", str(self.repo), str(self.settings), user_repo],
                          cwd=ROOT, env=env, stdin=subprocess.DEVNULL, check=False).returncode != 0:
            raise build.SuiteError(f"cannot install into {self.repo}")
        self.checks.pass_(f"install: jp-engine and jp-maven-plugin {self.version} in a throwaway repository")

    def mvn_start(self, name, directory, *args):
        """Starts a build in DIRECTORY (batch mode, offline once the repository is filled), its
        output in WORK/NAME.log; finish it with mvn_wait."""
        offline = [] if self.online else ["-o"]
        log = open(self.log(name), "wb")
        process = subprocess.Popen(["mvn", "-B", "-s", str(self.settings), *offline,
                                    f"-Dmaven.repo.local={self.repo}", f"-Djp.engine.cacheDir={self.work}/engine",
                                    "-Dstyle.color=never", *map(str, args)],
                                   cwd=directory, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        return name, process, log

    def mvn_wait(self, build_started):
        """Waits for a build of mvn_start; its log loses colour codes; whether it passed."""
        name, process, log = build_started
        status = process.wait()
        log.close()
        self.log(name).write_text(_COLOUR.sub("", text(self.log(name))))
        return status == 0

    def mvn_run(self, name, directory, *args):
        """A build (see mvn_start); whether it passed."""
        return self.mvn_wait(self.mvn_start(name, directory, *args))

    def instrumented(self, name):
        """What jp:instrument logged in NAME's build: `target/classes -> target/jp/classes: N rewritten, ...`."""
        line = first_match(r"^.*\] jp: target/classes -> .*$", self.log(name))
        return re.sub(r".*\] jp: ", "", line)

    def copy_project(self, source, target):
        """A copy of a project with this JP's version."""
        shutil.copytree(source, target, symlinks=True)
        shutil.rmtree(target / "target", ignore_errors=True)
        for pom in target.rglob("pom.xml"):
            pom.write_text(re.sub(r"<jp.version>[^<]*</jp.version>", f"<jp.version>{self.version}</jp.version>",
                                  pom.read_text()))
        return target

    def outcome(self, ok, passed, failed=None, details=""):
        """PASS PASSED when OK, else FAIL FAILED (PASSED when None) with DETAILS."""
        return self.checks.check(ok, passed, passed if failed is None else failed, details)

    # -- 2. the demo ------------------------------------------------------------------------------

    def demo(self):
        work, checks = self.work, self.checks
        examples_log = self.log("examples")
        same = commands.run_logged(["diff", "-r", ROOT / "examples" / "gradle-demo" / "src", DEMO_SOURCES / "src"],
                                   examples_log) == 0
        links = any(path.is_symlink() for path in (ROOT / "examples").rglob("*"))
        self.outcome(same and not links, "examples: no links; maven-demo/src equals gradle-demo/src",
                     details=shown(examples_log))
        self.demo_dir = demo = self.copy_project(DEMO_SOURCES, work / "demo")
        if self.mvn_run("demo", demo, "verify"):
            checks.pass_(f"demo: mvn verify on a plain copy (cp -r) of examples/maven-demo ({self.maven_version})")
        else:
            checks.fail("demo: mvn verify on a plain copy (cp -r) of examples/maven-demo", shown(self.log("demo"), 40))
        # The JUnit 5 and TestNG projects of the per-test checks (2c), built while Maven may still
        # fetch what it needs.
        self.params = self.copy_project(MAVEN_PROJECTS / "params-demo", work / "params")
        self.params_ok = self.mvn_run("params", self.params, "verify")
        self.testng = self.copy_project(MAVEN_PROJECTS / "testng-demo", work / "testng")
        self.testng_ok = self.mvn_run("testng", self.testng, "verify")
        # jp:site-report in mvn site (2d): copies of the demo with its profiles, built while Maven
        # fetches the site plugins (Doxia 1 and Doxia 2 ones).
        self.site_ok = {}
        for version in ("3.12.1", "3.21.0"):
            site = work / f"site-{version}"
            shutil.copytree(demo, site, symlinks=True)
            edit(site / "pom.xml", "<plugins>", "<plugins><plugin><artifactId>maven-site-plugin</artifactId>"
                 f"<version>{version}</version></plugin>", 1)
            edit(site / "pom.xml", "</build>", "</build><reporting><excludeDefaults>true</excludeDefaults><plugins>"
                 "<plugin><groupId>org.jpprof</groupId><artifactId>jp-maven-plugin</artifactId>"
                 "<version>${jp.version}</version></plugin></plugins></reporting>")
            shutil.rmtree(site / "target" / "site", ignore_errors=True)
            self.site_ok[version] = self.mvn_run(f"site-{version}", site, "site")
        self.online = False

        tests, broken = surefire.counts(demo / "target" / "surefire-reports")
        if tests > 0 and broken == 0 and "jp: target/classes -> target/jp/classes: " in text(self.log("demo")):
            checks.pass_(f"demo: {tests} tests passed on instrumented classes ({self.instrumented('demo')})")
        else:
            checks.fail(f"demo: tests on instrumented classes (tests: {tests}, failures and errors: {broken})")

        # The jar holds the compiler's classes, byte for byte, and the instrumented ones differ from them.
        jar = demo / "target" / "maven-demo-1.0.0.jar"
        unjarred = work / "unjar"
        ok = jar.is_file() and unjar(jar, unjarred)
        jar_classes = class_count(jar) if ok else 0
        differing = files.differing_files(demo / "target" / "classes" / "org", unjarred / "org") if ok else ["?"]
        leaderboard = pathlib.Path("org/example/leaderboard/Leaderboard.class")
        if ok and jar_classes == 5 and not differing and (unjarred / leaderboard).read_bytes() != \
                (demo / "target" / "jp" / "classes" / leaderboard).read_bytes():
            checks.pass_(f"demo: the jar's {jar_classes} classes equal target/classes byte for byte; "
                         "target/jp/classes is instrumented")
        else:
            checks.fail("demo: the jar holds the original classes", "".join(f"    | {path}\n" for path in differing))

        self.plugin.demo_profiles("target/jp/profiles/run-*", *profiles(demo, "target/jp/profiles/run-*/test-*.jpprof"))

        site = demo / "target" / "site" / "jp"
        self.outcome((site / "index.html").is_file() and (site / "index.html").stat().st_size > 0
                     and (site / "report.txt").is_file() and "Leaderboard" in text(site / "report.txt")
                     and "<html" in text(site / "index.html").lower(),
                     "demo: jp:report wrote target/site/jp/index.html and report.txt", details=shown(self.log("demo")))

    def at_once(self):
        """2b: each build's tests write into a run directory of their own, and each jp:report
        reports its own run: one profile, with the calls of one run (the demo's), not those of both."""
        twice = self.twice = self.copy_project(DEMO_SOURCES, self.work / "twice")
        single = self.plugin.total_calls(profiles(self.demo_dir, "target/jp/profiles/run-*/*.jpprof"))
        # Compiled first, so that the two builds do not compile into one directory at once;
        # test-compile runs jp:instrument too, whose run of profiles (empty, the tests did not run) goes.
        if not self.mvn_run("twice-prepare", twice, "test-compile"):
            self.checks.fail("at once: mvn test-compile", shown(self.log("twice-prepare")))
            return
        shutil.rmtree(twice / "target" / "jp" / "profiles", ignore_errors=True)
        # Surefire deletes its directory of booter jars (target/surefire) when its run ends, which
        # would pull the jar from under the other build's test JVM: each build has its own.
        started = [self.mvn_start(f"twice-{i}", twice, f"-DtempDir=surefire-{i}", "test", "jp:report") for i in (1, 2)]
        statuses = [self.mvn_wait(build_started) for build_started in started]
        runs = dirs(twice, "target/jp/profiles/run-*")
        totals = [str(self.plugin.total_calls(profiles(run))) for run in runs]
        reported = [f"twice-{i}" for i in (1, 2)
                    if "jp: report of maven-demo (1 profile): " in text(self.log(f"twice-{i}"))]
        if all(statuses) and len(runs) == 2 and totals == [str(single)] * 2 and len(reported) == 2:
            self.checks.pass_(f"at once: two builds of mvn test jp:report in one project, each with a run of its own "
                              f"({single} calls each) and a report of it")
        else:
            reports = "".join(line + "\n" for i in (1, 2) for line in text(self.log(f"twice-{i}")).splitlines()
                              if "jp: report of" in line)
            self.checks.fail(f"at once: two builds, a run each (runs: {len(runs)}, "
                             f"calls: {' '.join(totals) or 'none'}, one run: {single})",
                             reports + shown(self.log("twice-1"), 10) + shown(self.log("twice-2"), 10))

    def jfr(self):
        """2b: -Djp.jfr=true: each test JVM records JFR beside its profile, and jp:report attaches it."""
        jfr = self.copy_project(DEMO_SOURCES, self.work / "jfr")
        built = self.mvn_run("jfr", jfr, "-Djp.jfr=true", "verify")
        recordings = sorted(jfr.glob("target/jp/profiles/run-*/jfr/*.jfr"))
        report = jfr / "target" / "site" / "jp" / "report.txt"
        row = next((line for line in text(report).splitlines() if line.startswith("total cpu-samples")), "")
        calls = [next((line.split()[-1] for line in text(path).splitlines() if line.startswith("total calls")), None)
                 for path in (report, self.demo_dir / "target" / "site" / "jp" / "report.txt")]
        self.outcome(built and recordings and row.endswith("samples (sampled, not reproducible)")
                     and calls[0] is not None and calls[0] == calls[1],
                     f"jfr: -Djp.jfr=true: {len(recordings)} recording(s) beside the profiles, and report.txt has "
                     f"`{' '.join(row.split())}` beside the demo's {calls[0]} calls",
                     "jfr: -Djp.jfr=true: a recording beside the profiles, and report.txt's CPU samples labelled "
                     "sampled, beside the demo's calls",
                     shown(self.log("jfr"), 40) + shown(report, 20))

    def metrics(self):
        """2b': -Djp.metrics=allocations: the tests count allocations, and jp:report totals them."""
        project = self.copy_project(DEMO_SOURCES, self.work / "metrics")
        built = self.mvn_run("metrics", project, "-Djp.metrics=allocations", "verify")
        report = project / "target" / "site" / "jp" / "report.txt"
        row = next((line for line in text(report).splitlines() if line.startswith("total allocations ")), "")
        calls = [next((line.split()[-1] for line in text(path).splitlines() if line.startswith("total calls")), None)
                 for path in (report, self.demo_dir / "target" / "site" / "jp" / "report.txt")]
        self.outcome(built and row.endswith("objects (exact)") and calls[0] is not None and calls[0] == calls[1],
                     f"metrics: -Djp.metrics=allocations: report.txt has `{' '.join(row.split())}` beside the "
                     f"demo's {calls[0]} calls",
                     "metrics: -Djp.metrics=allocations: report.txt's allocations labelled exact, beside the "
                     "demo's calls",
                     shown(self.log("metrics"), 40) + shown(report, 20))
        baseline = project / "jp-baseline.txt"
        recorded = self.mvn_run("metrics-baseline", project, "jp:baseline", "-Djp.baselineMetric=allocations",
                                "-Djp.methodFloor=0")
        checked = self.mvn_run("metrics-check", project, "jp:check")
        self.outcome(built and recorded and checked and found("^metric allocations$", baseline)
                     and found("^method [0-9]* [0-9]* ", baseline)
                     and found(r"\] jp check: passed", self.log("metrics-check")),
                     "metrics: -Djp.baselineMetric=allocations: jp:baseline records allocations, and jp:check "
                     "gates the same run's allocations and passes",
                     details=shown(self.log("metrics-check"), 30) + (shown(baseline, 10) if baseline.is_file() else ""))

    def site(self):
        """2d: `mvn site` with the plugin in <reporting>: "Project Reports" link the JP report,
        jp/index.html, written from the profiles of the earlier `mvn verify`; with no profiles, no
        link to a missing page."""
        for version, ok in self.site_ok.items():
            site = self.work / f"site-{version}" / "target" / "site"
            link = re.search(r'<a href="([^"]*)"[^>]*>JP profile</a>', text(site / "project-reports.html"))
            link = link.group(1) if link else ""
            log = self.log(f"site-{version}")
            if ok and link == "jp/index.html" and complete_page(site / link) and \
                    "Leaderboard" in text(site / "jp" / "report.txt") and \
                    found(r'"JP profile" report .*jp-maven-plugin:.*:site-report', log):
                self.checks.pass_(f"site: mvn site (maven-site-plugin {version}): project-reports.html links the JP "
                                  f"report, {link}, which is there")
            else:
                self.checks.fail(f"site: mvn site (maven-site-plugin {version}): project-reports.html links the JP "
                                 f"report (link: {link or 'none'})", shown(log))
        old = self.work / "site-3.12.1"
        shutil.rmtree(old / "target", ignore_errors=True)
        ok = self.mvn_run("site-none", old, "site")
        self.outcome(ok and not (old / "target" / "site" / "jp").exists()
                     and "jp/index.html" not in text(old / "target" / "site" / "project-reports.html")
                     and "jp: no profiles in target/jp/profiles; the site lists no JP report"
                     in text(self.log("site-none")),
                     "site: with no profiles, mvn site lists no JP report and says why",
                     "site: with no profiles, mvn site lists no JP report", shown(self.log("site-none")))

    def one_off(self):
        """2e: a copy of the demo whose POM names nothing of JP's: `mvn
        org.jpprof:jp-maven-plugin:<v>:profile` forks the lifecycle up to test with jp:instrument
        and Surefire on the instrumented classes, and reports; every method has the calls and own
        bytecodes of the demo's own (configured) run. The package phase after it in the same build
        packages the compiler's classes."""
        plain = self.copy_project(DEMO_SOURCES, self.work / "plain")
        pom = plain / "pom.xml"
        pom.write_text("".join(f"{line}\n" for line in without_jp(pom.read_text().splitlines())))
        demo_hot = hot_methods(self.demo_dir / "target" / "site" / "jp" / "report.txt")
        log = self.log("plain")
        if names_jp(pom):
            self.checks.fail("one-off: the copy's POM still names JP", "".join(f"{line}\n" for line in names_jp(pom)))
            return
        plain_hot = []
        ok = self.mvn_run("plain", plain, "-Djp.bba=precise", f"org.jpprof:jp-maven-plugin:{self.version}:profile",
                          "package")
        if ok:
            plain_hot = hot_methods(plain / "target" / "site" / "jp" / "report.txt")
        if ok and plain_hot and plain_hot == demo_hot and found(r"> \[jp\]test @ maven-demo", log) \
                and "[WARNING] jp: " not in text(log) \
                and unjar(plain / "target" / "maven-demo-1.0.0.jar", self.work / "plain-jar") \
                and not files.differing_files(plain / "target" / "classes" / "org", self.work / "plain-jar" / "org"):
            self.checks.pass_(f"one-off: mvn org.jpprof:jp-maven-plugin:{self.version}:profile package on a POM "
                              f"without JP: {len(plain_hot)} methods with the calls and bytecodes of the configured "
                              "demo's run; the jar holds the compiler's classes")
        else:
            differences = [f"< {line}" for line in demo_hot if line not in plain_hot] + \
                          [f"> {line}" for line in plain_hot if line not in demo_hot]
            self.checks.fail("one-off: jp:profile on a POM without JP profiles the tests as the configured demo does",
                             "".join(f"{line}\n" for line in differences[:10]) + shown(log))

    # -- 2c. per-test contexts --------------------------------------------------------------------

    def per_test(self):
        work, demo = self.work, self.demo_dir
        # The demo (JUnit 4, Surefire's JUnit 4 provider with JP's listener): every test its own
        # top-level context, StatsTest's instance set-up (a field of four players) inside each of
        # its tests, the class's context from JUnit 4.13's class notifications; each build's
        # per-test totals equal.
        demo_profiles = profiles(demo, "target/jp/profiles/run-*/test-*.jpprof")
        self.plugin.demo_tests(work / "demo-tests.folded", demo / "target" / "surefire-reports", *demo_profiles)
        demo_totals = self.plugin.per_test_totals(demo_profiles)
        same = sum(1 for run in dirs(self.twice, "target/jp/profiles/run-*")
                   if self.plugin.per_test_totals(profiles(run)) == demo_totals)
        self.outcome(same == 2 and bool(demo_totals),
                     f"per-test: demo: three builds give identical per-test totals ({len(demo_totals)} test contexts)",
                     f"per-test: demo: per-test totals differ between builds ({same} of 2 equal)")

        # A JUnit 5 project (Surefire's JUnit Platform provider, nothing of JP's in the POM but the
        # instrument goal): each invocation of a parameterized test a context of its own, with
        # @BeforeEach inside it and @BeforeAll under the class's context; the longer line runs
        # more bytecodes.
        params_profiles = profiles(self.params, "target/jp/profiles/run-*/*.jpprof")
        calls, bytecodes = work / "params-calls.folded", work / "params-bytecodes.folded"
        if self.params_ok and params_profiles and self.plugin.report_to(params_profiles, "calls", calls) \
                and self.plugin.report_to(params_profiles, "bytecodes", bytecodes):
            self.plugin.per_test("params", calls, self.params / "target" / "surefire-reports")
            self.plugin.params_contexts(calls, bytecodes)
        else:
            self.checks.fail("per-test: params: mvn verify of a JUnit 5 project and its profile",
                             shown(self.log("params"), 40))

        # A TestNG project (Surefire's TestNG provider; nothing of JP's in the POM but the
        # instrument goal, TestNG loads JP's listener by itself), run twice.
        first_runs = dirs(self.testng, "target/jp/profiles/run-*")
        if self.testng_ok and len(first_runs) == 1 and self.mvn_run("testng-again", self.testng, "test"):
            second = [run for run in dirs(self.testng, "target/jp/profiles/run-*") if run != first_runs[0]]
            self.plugin.testng(f"testng (TestNG {testng_version(text(MAVEN_PROJECTS / 'testng-demo' / 'pom.xml'))}, "
                               "Surefire)", f"{first_runs[0]}/", f"{second[0]}/" if second else "none")
        else:
            self.checks.fail("per-test: testng: mvn verify and mvn test of a TestNG project",
                             shown(self.log("testng"), 40) + shown(self.log("testng-again"), 20))

    # -- 3. IDE -----------------------------------------------------------------------------------

    def ide(self):
        demo = self.demo_dir
        jp_dir = demo / "target" / "jp"
        if self.mvn_run("ide", demo, "jp:ide", "-Djp.mainClass=org.example.leaderboard.Main"):
            self.plugin.ide_settings("jp:ide", demo, "JP maven-demo", jp_dir / "ide.txt", jp_dir / "profiles",
                                     jp_dir / "classes", demo / "target" / "classes")
        else:
            self.checks.fail("ide: jp:ide prints the class path and JVM options", shown(self.log("ide")))
        shutil.rmtree(demo / ".run", ignore_errors=True)
        ok = self.mvn_run("ide-off", demo, "jp:ide", "-Djp.mainClass=org.example.leaderboard.Main",
                          "-Djp.ideFiles=false")
        self.outcome(ok and (jp_dir / "ide.txt").is_file() and not (demo / ".run").exists(),
                     "ide: jp:ide -Djp.ideFiles=false writes target/jp/ide.txt and no run configuration",
                     details=shown(self.log("ide-off")))

    # -- 4. incremental work and jp.skip ----------------------------------------------------------

    def incremental(self):
        demo = self.demo_dir
        classes = len(list((demo / "target" / "classes").rglob("*.class")))

        def counts(name):
            return re.sub(r".*: ", "", self.instrumented(name))

        ok = self.mvn_run("again", demo, "jp:instrument")
        self.outcome(ok and f": 0 rewritten, {classes} reused," in self.instrumented("again"),
                     f"incremental: mvn jp:instrument again rewrites nothing ({counts('again')})",
                     f"incremental: mvn jp:instrument again rewrites nothing: {self.instrumented('again')}",
                     shown(self.log("again")))

        edit(demo / "src/main/java/org/example/leaderboard/Stats.java",
             'throw new IllegalArgumentException("no players")',
             'throw new IllegalArgumentException("no players at all")')
        ok = self.mvn_run("edit", demo, "compile", "jp:instrument")
        self.outcome(ok and f": 1 rewritten, {classes - 1} reused," in self.instrumented("edit"),
                     f"incremental: one class edited, one rewritten ({counts('edit')})",
                     f"incremental: one class edited, one rewritten: {self.instrumented('edit')}",
                     shown(self.log("edit")))

        clean = self.work / "clean"
        shutil.copytree(demo, clean, symlinks=True)
        shutil.rmtree(clean / "target")
        diff_log = self.log("diff")
        ok = self.mvn_run("clean", clean, "compile", "jp:instrument") and commands.run_logged(
            ["diff", "-r", demo / "target" / "jp" / "classes", clean / "target" / "jp" / "classes"], diff_log) == 0
        self.outcome(ok, "incremental: the output after the edit equals a clean build's, byte for byte",
                     details=shown(diff_log))

        (demo / "src/main/java/org/example/leaderboard/Main.java").unlink()
        (demo / "target/classes/org/example/leaderboard/Main.class").unlink()
        ok = self.mvn_run("delete", demo, "jp:instrument")
        self.outcome(ok and " 1 deleted," in self.instrumented("delete")
                     and not (demo / "target/jp/classes/org/example/leaderboard/Main.class").exists(),
                     "incremental: a deleted class loses its instrumented class",
                     f"incremental: a deleted class loses its instrumented class: {self.instrumented('delete')}",
                     shown(self.log("delete")))

        for run in dirs(demo, "target/jp/profiles/run-*"):
            shutil.rmtree(run)
        ok = self.mvn_run("skip", demo, "verify", "-Djp.skip")
        log = text(self.log("skip"))
        tests, broken = surefire.counts(demo / "target" / "surefire-reports")
        if ok and "jp: skipped (jp.skip is set)" in log and "jp: target/classes -> " not in log \
                and not profiles(demo, "target/jp/profiles/run-*/*.jpprof") and tests > 0 and broken == 0:
            self.checks.pass_(f"skip: -Djp.skip skips with a message; {tests} tests passed on the compiler's classes, "
                              "no profile")
        else:
            self.checks.fail("skip: -Djp.skip skips with a message", shown(self.log("skip")))

    # -- 5. a multi-module reactor, two modules at once -------------------------------------------

    def multi_module(self):
        multi = self.work / "multi"
        sources = ROOT / "integration-tests" / "gradle" / "multi-module"
        for module, path in (("core", "main/java/org/acme/core/Fib.java"),
                             ("core", "test/java/org/acme/core/FibTest.java"),
                             ("app", "main/java/org/acme/app/Table.java"),
                             ("app", "test/java/org/acme/app/TableTest.java")):
            target = multi / module / "src" / path
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(sources / module / "src" / path, target)
        # The parent: the demo's build section (plugin versions, JP, Surefire), inherited by both modules.
        pom = text(self.demo_dir / "pom.xml").splitlines()
        start = next(i for i, line in enumerate(pom) if "<build>" in line)
        end = next(i for i, line in enumerate(pom) if i > start and "</build>" in line)
        build_section = "\n".join(line for line in pom[start:end + 1] if "<goal>report</goal>" not in line)
        (multi / "pom.xml").write_text(f"""<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.acme</groupId>
  <artifactId>multi</artifactId>
  <version>1.0.0</version>
  <packaging>pom</packaging>
  <modules>
    <module>core</module>
    <module>app</module>
  </modules>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>17</maven.compiler.release>
    <jp.version>{self.version}</jp.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>junit</groupId>
      <artifactId>junit</artifactId>
      <version>4.13.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
{build_section}
</project>
""")
        for module, dependency in (("core", ""), ("app", "core")):
            dependencies = "" if not dependency else "<dependencies><dependency><groupId>org.acme</groupId>" \
                f"<artifactId>{dependency}</artifactId><version>1.0.0</version></dependency></dependencies>"
            (multi / module / "pom.xml").write_text(f"""<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.acme</groupId><artifactId>multi</artifactId><version>1.0.0</version></parent>
  <artifactId>{module}</artifactId>
  {dependencies}
</project>
""")
        log = self.log("multi")
        if self.mvn_run("multi", multi, "-T", "2", "verify", "jp:report"):
            core = profiles(multi, "core/target/jp/profiles/run-*/*.jpprof")
            app = profiles(multi, "app/target/jp/profiles/run-*/*.jpprof")
            fib = re.compile(r"^\[test\] org\.acme\.core\.FibTest#[^;]*;org\.acme\.core\.Fib\.fib\(int\):long;"
                             r"org\.acme\.core\.Fib\.fib\(int\):long")
            row = re.compile(r"^\[test\] org\.acme\.app\.TableTest#[^;]*;"
                             r"org\.acme\.app\.Table\.row\(int\):java\.lang\.String")
            instrumented = [line for line in text(log).splitlines()
                            if "jp: target/classes -> target/jp/classes: " in line]
            self.outcome(bool(core) and bool(app) and any(fib.match(line) for line in self.plugin.folded(core, "calls"))
                         and any(row.match(line) for line in self.plugin.folded(app, "calls"))
                         and "MultiThreadedBuilder implementation with a thread count of 2" in text(log)
                         and "jp: target/classes -> target/jp/classes: 1 rewritten" in text(log)
                         and len(instrumented) == 2,
                         "multi: mvn -T 2 verify: core and app (depending on core) each profiled on their own "
                         "instrumented classes, per test", "multi: profiles of core (Fib.fib) and app (Table.row)",
                         shown(log))
            pages = [multi / where / "target/site/jp/index.html" for where in (".", "core", "app")]
            report = text(multi / "target/site/jp/report.txt")
            self.outcome(all(page.is_file() and page.stat().st_size > 0 for page in pages)
                         and "Fib" in report and "Table" in report,
                         "multi: jp:report wrote each module's report and one of the whole reactor",
                         "multi: jp:report of the reactor", shown(log))
        else:
            self.checks.fail("multi: mvn -T 2 verify", shown(log, 40))

        # One jpDirectory for all modules: each module's jp:instrument would delete the classes the
        # other wrote there (as inputs that are gone). The second module to instrument is refused,
        # naming the first; the reactor is built with -T 4 as a user with more cores would.
        shared = self.work / "shared"
        shutil.copytree(multi, shared, symlinks=True)
        for target in (shared / "target", shared / "core" / "target", shared / "app" / "target"):
            shutil.rmtree(target, ignore_errors=True)
        edit(shared / "pom.xml", "<bba>precise</bba>", "<bba>precise</bba><jpDirectory>"
             "${maven.multiModuleProjectDirectory}/target/jp</jpDirectory>")
        log = self.log("shared")
        if self.mvn_run("shared", shared, "-T", "4", "verify"):
            self.checks.fail("shared jpDirectory: two modules with one jpDirectory are refused", shown(log))
        elif f"jp: {shared}/target/jp is the jpDirectory of org.acme:core ({shared}/core) already: modules must not " \
                "share one" in text(log) and "thread count of 4" in text(log) \
                and "NoClassDefFoundError" not in text(log):
            self.checks.pass_("shared jpDirectory: mvn -T 4 verify refuses app's jpDirectory, which core has: "
                              + first_match(r"jp: [^ ]* is the jpDirectory of [^:]*:[^ ]*", log))
        else:
            self.checks.fail("shared jpDirectory: the refusal names the directory and the module that has it",
                             shown(log))

    # -- 5b. the modules a module depends on, instrumented in its tests ---------------------------

    def check_reactor(self, reactor, name, what):
        """The reports of a `mvn <phase> jp:report` of REACTOR, its log WORK/NAME.log: app's report
        has Fib.fib with core's counts, 465 calls (2 fib(13) - 1) in the same 12 contexts, and
        the reactor's report both modules'."""
        core_fib = fib_hot(reactor / "core/target/site/jp/report.txt")
        app_fib = fib_hot(reactor / "app/target/site/jp/report.txt")
        all_fib = fib_hot(reactor / "target/site/jp/report.txt")
        if core_fib.endswith(" 465 12") and app_fib == core_fib \
                and f"{what} -> target/jp/deps/org.acme.core/" in text(self.log(name)) \
                and "Line.of(int) [org.acme.app]" in text(reactor / "target/site/jp/report.txt") \
                and all_fib.endswith(" 930 24"):
            self.checks.pass_(f"reactor: {name}: app's tests run core's classes instrumented ({what}): Fib.fib in "
                              f"app's report.txt as in core's ({app_fib}: bytecodes, calls, contexts); the reactor's "
                              "report has both modules")
        else:
            self.checks.fail(f"reactor: {name}: Fib.fib in app's report.txt as in core's (core: {core_fib or 'none'}, "
                             f"app: {app_fib or 'none'}, reactor: {all_fib or 'none'})", shown(self.log(name)))

    def reactor(self):
        """integration-tests/maven/reactor-demo: app's test calls core's Fib.fib(12) through app's
        Line.of, core's test calls it directly. app's tests run on an instrumented copy of core
        (its target/classes under `mvn test`, its jar under `mvn verify`)."""
        reactor = self.copy_project(MAVEN_PROJECTS / "reactor-demo", self.work / "reactor")
        if self.mvn_run("reactor", reactor, "test", "jp:report"):
            self.check_reactor(reactor, "reactor", f"{reactor}/core/target/classes")
        else:
            self.checks.fail("reactor: mvn test jp:report", shown(self.log("reactor"), 40))
        for module in ("core", "app"):
            shutil.rmtree(reactor / module / "target" / "site", ignore_errors=True)
        if self.mvn_run("reactor-verify", reactor, "verify", "jp:report"):
            self.check_reactor(reactor, "reactor-verify", f"{reactor}/core/target/core-1.0.0.jar")
            fib = "org/acme/core/Fib.class"
            self.outcome(unjar(reactor / "core/target/core-1.0.0.jar", self.work / "reactor-jar", [fib])
                         and (self.work / "reactor-jar" / fib).read_bytes()
                         == (reactor / "core/target/classes" / fib).read_bytes(),
                         "reactor: core's jar keeps the compiler's Fib.class")
        else:
            self.checks.fail("reactor: mvn verify jp:report", shown(self.log("reactor-verify"), 40))
        app_report = reactor / "app/target/site/jp/report.txt"
        ok = self.mvn_run("reactor-off", reactor, "test", "jp:report", "-Djp.reactorDependencies=false")
        self.outcome(ok and "Line.of(int) [org.acme.app]" in text(app_report) and not fib_hot(app_report)
                     and "target/jp/deps/" not in text(self.log("reactor-off")),
                     "reactor: -Djp.reactorDependencies=false: app's tests run core's classes as the reactor hands "
                     "them over, uninstrumented",
                     "reactor: -Djp.reactorDependencies=false leaves core's classes alone",
                     shown(self.log("reactor-off")))
        # The one-off jp:profile in the same reactor with nothing of JP's in its POMs: app's report
        # again has Fib.fib with core's counts.
        plain = self.copy_project(MAVEN_PROJECTS / "reactor-demo", self.work / "plain-reactor")
        pom = plain / "pom.xml"
        pom.write_text("".join(f"{line}\n" for line in reactor_without_jp(
            text(MAVEN_PROJECTS / "reactor-demo" / "pom.xml").splitlines())))
        plain_fib = plain / "app/target/site/jp/report.txt"
        if names_jp(pom):
            self.checks.fail("reactor: one-off: the copy's POM still names JP",
                             "".join(f"{line}\n" for line in names_jp(pom)))
        elif self.mvn_run("plain-reactor", plain, "-Djp.bba=precise",
                          f"org.jpprof:jp-maven-plugin:{self.version}:profile") \
                and fib_hot(plain_fib) == fib_hot(reactor / "core/target/site/jp/report.txt") \
                and "jp: reactor-demo is a pom module, with no tests to profile" in text(self.log("plain-reactor")):
            self.checks.pass_("reactor: one-off: jp:profile on the reactor with no JP in its POMs: Fib.fib in app's "
                              f"report as in core's ({fib_hot(plain_fib)})")
        else:
            self.checks.fail("reactor: one-off: jp:profile on the reactor with no JP in its POMs "
                             f"(app: {fib_hot(plain_fib)})",
                             shown(self.log("plain-reactor")))

    # -- 6. two builds in one JVM -----------------------------------------------------------------

    def embedded(self):
        embedded = self.copy_project(DEMO_SOURCES, self.work / "embedded")
        home = pathlib.Path(self.maven_home) if self.maven_home else None
        if not home or not (home / "lib").is_dir() or not list((home / "lib").glob("maven-embedder*.jar")):
            self.checks.skip(f"one JVM: no maven-embedder jar in {self.maven_home or 'the Maven home'}")
            return
        log = self.log("embedded")
        status = commands.run_logged(
            ["java", "-cp", f"{home}/lib/*:{home}/boot/*:{home}/conf/logging", f"-Dmaven.home={home}",
             f"-Dmaven.multiModuleProjectDirectory={embedded}", f"-Djp.engine.cacheDir={self.work}/embedded-engine",
             "-Dstyle.color=never", str(MAVEN_PROJECTS / "EmbeddedTwice.java"), str(embedded),
             "-B", "-o", "-s", str(self.settings), f"-Dmaven.repo.local={self.repo}", "verify"], log, cwd=embedded)
        successes = sum(1 for line in text(log).splitlines() if "BUILD SUCCESS" in line)
        self.outcome(status == 0 and successes == 2
                     and "jp: target/classes -> target/jp/classes: 0 rewritten" in text(log)
                     and bool(list((self.work / "embedded-engine").glob("libjp_jni-*-1.so"))),
                     "one JVM: two embedded builds in a row; the second loads the engine in a new class loader",
                     "one JVM: two embedded builds in a row", shown(log, 40))

    # -- 6b. the regression gate ------------------------------------------------------------------

    def gate(self):
        """jp:baseline records the demo's counts; a clean second run records the same bytes;
        jp:check passes on the same code, fails naming Leaderboard.rank and the tests that run it
        with their numbers once rank does more work, lets that through with tolerances set for
        them in the POM, and passes again once the change is reverted. A baseline of other
        settings is refused, a missing one explained."""
        work, checks = self.work, self.checks
        gate = self.copy_project(DEMO_SOURCES, work / "gate")
        baseline = gate / "jp-baseline.txt"
        rank = "org.example.leaderboard.Leaderboard.rank(Ljava/util/List;)Ljava/util/List;"
        leaderboard = gate / "src/main/java/org/example/leaderboard/Leaderboard.java"
        original = leaderboard.read_text()
        passed = r"\] jp check: passed"
        ok = self.mvn_run("gate-baseline", gate, "verify", "jp:baseline", "-Djp.methodFloor=0")
        if ok and found(f"^method [0-9]* [0-9]* {re.escape(rank)}$", baseline) \
                and found("^setting bba precise$", baseline):
            checks.pass_(f"gate: jp:baseline wrote jp-baseline.txt ({text(baseline).count(chr(10))} lines, "
                         "bba precise, Leaderboard.rank recorded)")
        else:
            checks.fail("gate: jp:baseline wrote jp-baseline.txt", shown(self.log("gate-baseline")))
        first_baseline = text(baseline)
        # Removed by hand: offline, maven-clean-plugin may not be in the repository.
        shutil.rmtree(gate / "target", ignore_errors=True)
        ok = self.mvn_run("gate-again", gate, "verify", "jp:baseline", "-Djp.methodFloor=0")
        self.outcome(ok and baseline.is_file() and text(baseline) == first_baseline,
                     "gate: a second, clean run of the tests gives a byte-identical baseline")
        ok = self.mvn_run("gate-pass", gate, "verify", "jp:check")
        self.outcome(ok and found(passed, self.log("gate-pass")), "gate: jp:check passes on the same code",
                     details=shown(self.log("gate-pass")))

        edit(leaderboard, "List<Player> ranked = new ArrayList<>(players);", "List<Player> ranked = new ArrayList<>("
             "players);\n        for (int k = 0; k < 100000; k++) { ranked.size(); }")
        regression = f"regression: method {re.escape(rank)}: [0-9]* -> [0-9]* bytecodes " \
                     r"\(\+[0-9]*, \+[0-9.]*%; tolerance 1%\)"
        # The demo's tests are contexts of their own, so the tests that run rank regress with it.
        test_regression = r"regression: test org\.example\.leaderboard\.LeaderboardTest#" \
                          r"ranksTwoThousandGeneratedPlayers\(\): [0-9]* -> [0-9]* bytecodes"
        log = self.log("gate-fail")
        if not self.mvn_run("gate-fail", gate, "verify", "jp:check") and found(r"\] " + regression, log) \
                and found(r"\] " + test_regression, log) \
                and found(r"jp: [0-9]* regressions? beyond the tolerance against jp-baseline\.txt", log) \
                and f"| method | `{rank}` |" in text(gate / "target/jp/check/jp-check.md"):
            checks.pass_("gate: jp:check fails once rank does more work, naming the method and the tests: "
                         + first_match(regression, log))
        else:
            checks.fail("gate: jp:check fails naming Leaderboard.rank and the tests that run it with their numbers",
                        shown(log))
        # jp diff of the passing run against the failing one (the run directories kept: the newest
        # finished run stays when a new one starts) ranks rank first among the methods.
        runs = sorted((gate / "target/jp/profiles").glob("run-*"))
        first = self.plugin.first_changed_method(runs[0], runs[1]) if len(runs) == 2 else ""
        self.outcome(ranks_rank_first(first),
                     f"gate: jp diff of the two runs ranks Leaderboard.rank first: {squeezed(first)}",
                     f"gate: jp diff of the two runs ranks Leaderboard.rank first (runs: {len(runs)}, "
                     f"first: {first or 'none'})")
        # jp:baseline kept the profiles it recorded, so the failing check wrote the diff of them
        # against its run, beside jp:report's report.
        diff_page = gate / "target/site/jp/check-diff.html"
        self.plugin.gate_diff("jp:check", log, "target/site/jp/check-diff.html", diff_page,
                              gate / "target/jp/baseline-profiles",
                              runs[-1] if runs else gate / "target/jp/profiles/run-*")
        # Without them (a fresh clone), the failure says so and gives the jp diff command.
        diff_page.unlink(missing_ok=True)
        log = self.log("gate-unkept")
        self.outcome(not self.mvn_run("gate-unkept", gate, "verify", "jp:check", "-Djp.baselineProfiles=none")
                     and not diff_page.exists()
                     and "no profiles of the baseline's run in none to diff against: run jp:baseline" in text(log)
                     and "jp diff <profiles of the baseline" in text(log),
                     "gate: without the baseline's profiles, the failing jp:check says so and how to get the diff",
                     details=shown(log))

        def tolerance(pattern):
            return f"<tolerance><pattern>{pattern}</pattern><percent>1000000</percent></tolerance>"

        tolerances = tolerance("org.example.leaderboard.Leaderboard.rank*") \
            + tolerance("org.example.leaderboard.LeaderboardTest#*")
        (gate / "pom-tolerant.xml").write_text(text(gate / "pom.xml").replace(
            "<bba>precise</bba>", f"<bba>precise</bba><tolerances>{tolerances}</tolerances>"))
        ok = self.mvn_run("gate-tolerant", gate, "-f", "pom-tolerant.xml", "verify", "jp:check")
        self.outcome(ok and found(passed, self.log("gate-tolerant")),
                     "gate: tolerances set in the POM for Leaderboard.rank and the tests of LeaderboardTest let that "
                     "regression through", details=shown(self.log("gate-tolerant")))
        leaderboard.write_text(original)
        ok = self.mvn_run("gate-reverted", gate, "verify", "jp:check")
        self.outcome(ok and found(passed, self.log("gate-reverted")),
                     "gate: jp:check passes again once the change is reverted",
                     details=shown(self.log("gate-reverted")))
        (gate / "other.txt").write_text(re.sub("^setting bba .*$", "setting bba default", text(baseline),
                                               flags=re.MULTILINE))
        ok = self.mvn_run("gate-other", gate, "verify", "jp:check", "-Djp.baseline=other.txt")
        self.outcome(not ok and found(r"other\.txt: recorded with other settings than these profiles.*"
                                      "bba is `default` in the baseline, `precise` now", self.log("gate-other")),
                     "gate: a baseline of other settings is refused, naming the setting",
                     "gate: a baseline of other settings is refused", shown(self.log("gate-other")))
        ok = self.mvn_run("gate-missing", gate, "verify", "jp:check", "-Djp.baseline=none.txt")
        self.outcome(not ok and found(r"none\.txt: no baseline here; record one .*mvn jp:baseline",
                                      self.log("gate-missing")),
                     "gate: a missing baseline fails saying how to record one", details=shown(self.log("gate-missing")))

    # -- 7. bad input -----------------------------------------------------------------------------

    def must_fail(self, name, directory, failure, *args):
        """Runs the build NAME, which must fail: a FAIL line with FAILURE when it passes; whether it failed."""
        if self.mvn_run(name, directory, *args):
            self.checks.fail(failure, shown(self.log(name)))
            return False
        return True

    def bad_input(self):
        work, checks = self.work, self.checks
        # Sources but no classes (jp:instrument before compiling): a failure naming the directory.
        uncompiled = self.copy_project(DEMO_SOURCES, work / "uncompiled")
        (uncompiled / "target" / "classes").mkdir(parents=True)
        log = self.log("uncompiled")
        if self.must_fail("uncompiled", uncompiled, "bad input: jp:instrument with sources but no classes fails",
                          "jp:instrument"):
            if found(f"jp: {re.escape(str(uncompiled))}/target/classes holds no class files, "
                     r"but the project has sources \(.*\.java\): compile first \(`mvn compile jp:instrument`", log):
                checks.pass_("bad input: jp:instrument with sources but an empty target/classes fails: "
                             + first_match(r"jp: [^ ]* holds no class files.*there", log))
            else:
                checks.fail("bad input: jp:instrument with sources but no classes names target/classes and says to "
                            "compile first", shown(log))

        # A Surefire <argLine> of the POM's own, which hides JP's options: a warning that shows how
        # to write it; the demo's configuration gets no warning.
        hidden = self.copy_project(DEMO_SOURCES, work / "hidden")
        surefire_classes = "<classesDirectory>${jp.classesDirectory}</classesDirectory>"
        edit(hidden / "pom.xml", surefire_classes, f"{surefire_classes}\n          <argLine>-Xmx256m</argLine>")
        demo_warnings = [line for line in text(self.log("demo")).splitlines() if "[WARNING] jp: " in line]
        ok = self.mvn_run("hidden", hidden, "compile", "jp:instrument")
        self.outcome(ok and found(r"\[WARNING\] jp: the <argLine> of maven-surefire-plugin replaces "
                                  r".*<argLine>@\{argLine\} -Xmx256m</argLine>", self.log("hidden"))
                     and not demo_warnings,
                     "hidden settings: a POM's own Surefire <argLine> gets a warning saying how to keep JP's options; "
                     "the demo none", "hidden settings: a POM's own Surefire <argLine> gets a warning",
                     shown(self.log("hidden")) + "".join(f"{line}\n" for line in demo_warnings))

        bad = self.copy_project(DEMO_SOURCES, work / "bad")
        if not self.mvn_run("bad-compile", bad, "compile"):
            checks.fail("bad input: mvn compile", shown(self.log("bad-compile")))
            return
        # Empty items in a list on the command line are left out (Maven gives them as nulls).
        ok = self.mvn_run("includes", bad, "jp:instrument", "-Djp.includes=org.example.**,,org.other.**,")
        self.outcome(ok and found("jp: target/classes -> target/jp/classes: [1-9][0-9]* rewritten",
                                  self.log("includes")),
                     "settings: -Djp.includes=org.example.**,,org.other.**, instruments, leaving out the empty items",
                     "settings: -Djp.includes with empty items", shown(self.log("includes")))
        # Settings the runtime would only warn about fail the build, naming the setting.
        for setting in ("agent=a periodic agent", "granularity=ten"):
            name, value = setting.split("=", 1)
            log = self.log(f"wrong-{name}")
            if not self.must_fail(f"wrong-{name}", bad, f"bad input: -Djp.{setting} fails the build", "jp:instrument",
                                  f"-Djp.{setting}"):
                continue
            if found(f"jp: jp.{name} = '{re.escape(value)}' is (neither|not)", log):
                named = first_match(f"jp: jp.{name} = .*line", log)
                checks.pass_(f"bad input: -Djp.{setting} fails the build: {named}")
            else:
                checks.fail(f"bad input: -Djp.{setting} fails the build naming jp.{name}", shown(log))
        broken = bad / "target/classes/org/example/leaderboard/Broken.class"
        broken.write_bytes(b"\xca\xfe\xba\xbe\x00\x00\x00\x3d\x00\x10garbage")
        log = self.log("bad")
        if self.must_fail("bad", bad, "bad input: a corrupt class fails jp:instrument", "jp:instrument"):
            named = next((line.lstrip() for line in text(log).splitlines() if "/Broken.class" in line), "")
            self.outcome("Broken.class" in text(log) and "could not be instrumented" in text(log)
                         and no_crash(bad, work),
                         f"bad input: a corrupt class fails jp:instrument naming it: {named}",
                         "bad input: the failure names Broken.class, and no JVM crashed", shown(log))
        (bad / "jp.toml").write_text("not toml [\n")
        broken.unlink()
        if self.must_fail("bad-config", bad, "bad input: a malformed jp.toml fails jp:instrument", "jp:instrument",
                          "-Djp.configFile=jp.toml"):
            self.outcome(f"{bad}/jp.toml" in text(self.log("bad-config")) and no_crash(bad, work),
                         "bad input: a malformed jp.toml fails jp:instrument naming it",
                         "bad input: the failure names jp.toml", shown(self.log("bad-config")))
        profile = bad / "target/jp/profiles/run-broken/broken.jpprof"
        profile.parent.mkdir(parents=True)
        profile.write_text("not a profile")
        if self.must_fail("bad-profile", bad, "bad input: a corrupt profile fails jp:report", "jp:report"):
            self.outcome(str(profile) in text(self.log("bad-profile")) and no_crash(bad, work),
                         "bad input: a corrupt profile fails jp:report naming it",
                         "bad input: the failure names broken.jpprof", shown(self.log("bad-profile")))

    def run(self):
        self.install()
        self.demo()
        self.at_once()
        self.jfr()
        self.metrics()
        self.site()
        self.one_off()
        self.per_test()
        self.ide()
        self.incremental()
        self.multi_module()
        self.reactor()
        self.embedded()
        self.gate()
        self.bad_input()
        self.checks.summary(PROGRAM)
        return self.checks.status()


def suite():
    return build.in_scratch(PROGRAM, "jp-maven.", lambda work: MavenPlugin(work).run())


if __name__ == "__main__":
    build.main(PROGRAM, suite)
