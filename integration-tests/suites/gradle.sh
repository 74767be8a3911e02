#!/usr/bin/env bash
# Gradle suite: the plugin org.jpprof.jp (gradle-plugin/, docs/gradle.md) in real builds, with the
# `gradle` on PATH (Debian's 4.4.1; run.sh installs it when missing). suites/gradle8.sh runs it
# again on Gradle 8.11.1 (JP_GRADLE_SUITE=gradle8: integration-tests/gradle8/gradle, which runs each
# build in its own JVM and has no daemon, so step 0 and step 5 are left out there, and step 9 only
# runs there).
#
#   0. the set-up step of the demo and of the test command (scripts/lib/ensure-tools.sh) in a dry
#      run, with a PATH without gradle: each would install Gradle, and nothing else;
#   1. builds the plugin and the engine with Maven (and `jp` with cargo, to read profiles) and puts
#      JP's artifacts into a throwaway local Maven repository, as `mvn install` lays them out;
#   2. checks that the plugin, compiled against the Gradle 8 API, calls only what this Gradle has
#      (integration-tests/gradle/ApiCheck.java), outside the classes it loads on newer Gradle only;
#   3. runs a plain copy (cp -r) of examples/gradle-demo: `gradle jpProfileTest jpReport` passes
#      its tests on instrumented classes, the profile's hottest context is the quadratic sort,
#      jpReport writes build/reports/jp/index.html (a complete HTML document) and report.txt
#      (naming the sort), and the compiler output is untouched; two builds at once in one project
#      each write a run of profiles of their own and report it alone; jpIdeSetup's class path runs
#      the application instrumented, its IntelliJ IDEA and Eclipse run configurations in .run/
#      parse, and java with exactly the class path and JVM options of each application
#      configuration runs it instrumented; `ideFiles = false` writes none;
#   3a. per-test contexts under Gradle's JUnit 4 framework: each of the demo's tests is its own
#      top-level context with its set-up inside, through a hooked copy of junit's jar in
#      build/jp/junit (RunNotifier rewritten, every other entry the same, junit's jar untouched);
#   4. incremental work: a second run is UP-TO-DATE; rerun, the engine rewrites nothing and reuses
#      every class; an edited class is the only one rewritten and the output equals a clean
#      build's byte for byte; a deleted class loses its output; a copy of the project in another
#      directory takes the instrumented classes from the build cache;
#   5. one daemon: builds in a row, and a build with another build-script class path (so a second
#      class loader loads the engine's library in the same JVM) that instruments and reports;
#   6. a multi-module build, one module depending on another (integration-tests/gradle/multi-module),
#      with a report per module, the upstream module's classes instrumented in the downstream
#      tests (exact calls), the root's jpAggregateReport of both, and -Pjp.skip skipping JP;
#   6a. JP enabled on `test` and on a test task of the build's own: each profiles its own tests
#      (filters kept), one jpReport merges them; jpProfileTest keeps test's filter;
#   6b. per-test contexts with TestNG (useTestNG(), the sources of integration-tests/maven/testng-demo):
#      each test method invocation has its context with its @BeforeMethod, a data provider's rows
#      are told apart, @BeforeClass counts under the class, two runs give identical per-test totals;
#   7. bad input, each failing the task with a message naming the file or setting, and no JVM
#      crashing (no hs_err file): sources without classes, a wrong agent or granularity in the
#      jp block, a corrupt class in the compiler output, an output directory that cannot be
#      created (a file in its place), an unreadable profile, a report file that cannot be written,
#      and a jp-engine without the runtime inside; with no profiles, jpReport says so and succeeds;
#   7b. the regression gate: jpBaseline writes jp-baseline.txt, byte-identical over two runs of
#      the tests and holding per-test totals; jpCheck passes on the same code, fails naming
#      Leaderboard.rank with its numbers once it does more work, and names the diff report of the
#      profiles jpBaseline kept against the run, which jp diff confirms (or, without them, says how
#      to get one); passes with tolerances set for it and its tests and once reverted; a baseline
#      of other settings is refused and a missing one explained;
#   8. the plugin marker: `plugins { id 'org.jpprof.jp' version ... }` resolves the plugin
#      (integration-tests/gradle/plugins-block, with JP installed under its release version too:
#      Gradle before 5 refuses -SNAPSHOT plugin versions there);
#   9. on Gradle 8 only: the demo under --warning-mode fail, the configuration cache stored and
#      reused by `clean jpProfileTest jpReport` builds, also when an unrelated environment
#      variable changed, a JVM test suite with JP enabled running its project's jar and another
#      project's instrumented (configuration cache, two projects), and a JUnit 5 project
#      (integration-tests/gradle/junit5, with the sources of integration-tests/maven/params-demo)
#      whose parameterized test's invocations each get their context.
#
# Gradle's own files (junit and testng, downloaded once from Maven Central) are kept in
# ${JP_CACHE_DIR:-~/.cache/jp}/gradle/home; the daemon of step 5 uses a home of its own, which is
# stopped at the end. Prints PASS/FAIL/SKIP lines; exits 1 if a check failed, 2 if the suite could
# not run. The work directory is kept when a check fails.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp
suite=${JP_GRADLE_SUITE:-gradle}
case $suite in
    gradle) gradle=gradle ;;
    gradle8) gradle=$root/integration-tests/gradle8/gradle ;;
    *) echo "gradle.sh: no Gradle for suite '$suite'" >&2; exit 2 ;;
esac
# shellcheck source=../lib/build-suite.sh
source "$root/integration-tests/lib/build-suite.sh"
# shellcheck source=../../scripts/lib/jp-repo.sh
source "$root/scripts/lib/jp-repo.sh"
cache=${JP_CACHE_DIR:-$HOME/.cache/jp}/$suite

command -v "$gradle" >/dev/null || die "no gradle on PATH (apt-get install gradle)"
command -v mvn >/dev/null || die "no mvn on PATH"

version=$(awk -F'[<>]' '/<version>/ { print $3; exit }' "$root/pom.xml")
[[ -n $version ]] || die "no version in $root/pom.xml"
work=$(mktemp -d "${TMPDIR:-/tmp}/jp-gradle.XXXXXX")
repo=$work/m2
export GRADLE_USER_HOME=$cache/home
mkdir -p "$GRADLE_USER_HOME"
daemon_home=$work/daemon-home

cleanup() {
    if [[ -d $daemon_home ]]; then
        GRADLE_USER_HOME=$daemon_home gradle --stop >/dev/null 2>&1 || true
    fi
    if ((failed == 0)); then rm -rf "$work"; else echo "gradle.sh: work files kept in $work"; fi
}
trap cleanup EXIT

# --- 0. set-up on a machine without Gradle --------------------------------------------------------
# The demo and the test command install what is missing (scripts/lib/ensure-tools.sh). Their set-up
# step alone (JP_ENSURE_DRY_RUN=1) with a PATH that has everything this machine has but gradle
# would install Gradle, and only Gradle.
# (Debian's Gradle only: the Gradle 8 harness is not installed, it is fetched.)
if [[ $suite == gradle ]]; then
    no_gradle=$work/path-without-gradle
    mkdir -p "$no_gradle"
    IFS=: read -r -a path_dirs <<<"$PATH"
    for dir in "${path_dirs[@]}"; do
        for tool in "$dir"/*; do
            name=${tool##*/}
            [[ $name != gradle && -x $tool && ! -e $no_gradle/$name ]] && ln -s "$tool" "$no_gradle/$name"
        done
    done
    for command in scripts/demo.sh "integration-tests/run.sh gradle"; do
        # shellcheck disable=SC2086 # the command's words
        if (cd "$root" && PATH=$no_gradle JP_ENSURE_DRY_RUN=1 bash $command) >"$work/ensure.log" 2>&1 &&
            grep -qx 'ensure_tools: would run: apt-get update && apt-get install -y --no-install-recommends gradle' "$work/ensure.log"; then
            pass "set-up: without gradle on PATH, bash $command would install gradle, and nothing else"
        else
            fail "set-up: without gradle on PATH, bash $command would install gradle"; show "$work/ensure.log"
        fi
    done
fi

# --- 1. build and install -------------------------------------------------------------------------
(cd "$root" && cargo build --release --quiet -p jp-cli) || die "cargo build -p jp-cli failed"
mvn -q -B -f "$root/pom.xml" package -DskipTests -pl gradle-plugin,gradle-plugin/marker -am \
    >"$work/mvn.log" 2>&1 || { show "$work/mvn.log" 40; die "mvn package failed"; }

modules=(parent runtime engine gradle-plugin gradle-marker)
install_jp "$repo" "$version" "${modules[@]}" || die "cannot install into $repo"
pass "install: jp-runtime, jp-engine, jp-gradle-plugin and its marker $version in a throwaway repository"

# gradle NAME DIR ARGS...: runs a build (no daemon, plain console) and keeps its log in $work/NAME.log;
# offline once Gradle's cache has the test framework's group (`needs`, junit by default).
gradle_run() {
    local name=$1 dir=$2
    shift 2
    local offline=()
    # Offline once what the build needs is there (junit unless the caller says, in `needs`, which
    # group; the first build fetches it), unless the caller says online=1.
    [[ ${online:-0} == 0 && -d $GRADLE_USER_HOME/caches/modules-2/files-2.1/${needs:-junit} ]] && offline=(--offline)
    (cd "$dir" && "$gradle" --no-daemon --console=plain "${offline[@]}" -Dmaven.repo.local="${use_repo:-$repo}" \
        -Djp.engine.cacheDir="$cache/engine" "$@") >"$work/$name.log" 2>&1
}
# task_outcome NAME TASK OUTCOME: the build NAME's log says TASK was OUTCOME (UP-TO-DATE, ...), as
# Gradle 4 (`:task OUTCOME`) or a later Gradle (`> Task :task OUTCOME`) prints it.
task_outcome() { grep -qE "^(> Task )?:$2 $3\$" "$work/$1.log"; }
# The line the plugin logs for an instrument task: `jp: jpInstrument -> DIR: N rewritten, N reused, ...`.
instrumented() { grep -m1 -E "^jp: $2 -> " "$work/$1.log"; }

# A copy of a project without build output, using this JP's plugin version.
copy_project() { # FROM TO
    cp -r "$1" "$2" && rm -rf "$2/build" "$2/.gradle" &&
        find "$2" -name build.gradle -exec sed -i "s/jp-gradle-plugin:[^']*'/jp-gradle-plugin:$version'/" {} +
}

# --- 2. the Gradle API the plugin uses ------------------------------------------------------------
gradle_version=$("$gradle" --version 2>/dev/null | awk '/^Gradle / { print $2; exit }')
gradle_lib=$(dirname "$(readlink -f "$(command -v gradle)")")/../lib
if [[ $gradle_version == 4.4.1 && -d $gradle_lib && -f /usr/share/java/groovy-all.jar ]]; then
    if java "$root/integration-tests/gradle/ApiCheck.java" "$root/gradle-plugin/target/jp-gradle-plugin-$version.jar" "$gradle_lib" \
        --guarded 'org.jpprof.gradle.Compat$LazyTasks' \
        --guarded 'org.jpprof.gradle.Compat$MainClassProperty' \
        --guarded 'org.jpprof.gradle.Compat$NewerTestSettings' \
        --guarded 'org.jpprof.gradle.TestSettings$JUnitPlatform' \
        --guarded 'org.jpprof.gradle.TestSettings$JUnitPlatform$1' \
        --deps /usr/share/java/groovy-all.jar --deps /usr/share/java/guava.jar --deps /usr/share/java/slf4j-api.jar \
        >"$work/api.log" 2>&1; then
        pass "api: $(tail -n 1 "$work/api.log")"
    else
        fail "api: the plugin calls what Gradle $gradle_version lacks"; show "$work/api.log"
    fi
else
    skip "api: needs Debian's Gradle 4.4.1 (found ${gradle_version:-none})"
fi

# --- 3. the demo ----------------------------------------------------------------------------------
demo=$work/demo
copy_project "$root/examples/gradle-demo" "$demo"
tasks=(jpProfileTest jpReport)

if gradle_run classes "$demo" classes; then
    before=$(digest "$demo/build/classes/java/main")
else
    fail "demo: gradle classes"; show "$work/classes.log"
fi
if gradle_run demo "$demo" "${tasks[@]}"; then
    pass "demo: gradle ${tasks[*]} on a plain copy (cp -r) of examples/gradle-demo ($gradle_version)"
else
    fail "demo: gradle ${tasks[*]} on a plain copy (cp -r) of examples/gradle-demo ($gradle_version)"; show "$work/demo.log" 40
fi

# JUnit's XML results: the tests run, and how many failed or broke.
read -r tests bad < <(cat "$demo"/build/test-results/jpProfileTest/*.xml 2>/dev/null | grep -o '<testsuite [^>]*' |
    awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "\""); if (kv[1] == "tests=") t += kv[2];
           if (kv[1] == "failures=" || kv[1] == "errors=") b += kv[2] } } END { print t + 0, b + 0 }')
if [[ ${tests:-0} -gt 0 && ${bad:-1} -eq 0 ]]; then
    pass "demo: $tests tests passed on instrumented classes"
else
    fail "demo: tests on instrumented classes (tests: ${tests:-none}, failures and errors: ${bad:-?})"
fi

if [[ -n ${before:-} && $(digest "$demo/build/classes/java/main") == "$before" ]] &&
    ! cmp -s "$demo/build/classes/java/main/org/example/leaderboard/Leaderboard.class" \
        "$demo/build/jp/classes/main/org/example/leaderboard/Leaderboard.class"; then
    pass "demo: compiler output untouched, build/jp/classes/main instrumented"
else
    fail "demo: compiler output untouched, build/jp/classes/main instrumented"
fi

check_demo_profiles build/jp/profiles/jpProfileTest/run-* "$demo"/build/jp/profiles/jpProfileTest/run-*/jpProfileTest-*.jpprof

# --- 3a. per-test contexts under Gradle's JUnit 4 framework ---------------------------------------
# The demo is plain JUnit 4, run by Gradle's own JUnit 4 executor (Gradle 4.4.1 has nothing else):
# with junit's jar swapped for its hooked copy, every test is its own top-level context, run once,
# StatsTest's instance set-up (a field of four players) counts inside each of its tests, and the
# class has its own context from JUnit 4.13's class notifications; junit's jar itself is untouched.
demo_profiles=("$demo"/build/jp/profiles/jpProfileTest/run-*/jpProfileTest-*.jpprof)
check_demo_tests "$work/demo-tests.folded" "$demo/build/test-results/jpProfileTest" "${demo_profiles[@]}"
hooked=("$demo"/build/jp/junit/junit-*.jar)
# Gradle keeps a downloaded file in a directory named after its SHA-1: a changed jar would not match.
junit_jar=$(find "$GRADLE_USER_HOME/caches/modules-2/files-2.1/junit/junit" -name 'junit-4.13.2.jar' | head -1)
# entries DIR: the files of an unpacked jar but RunNotifier, with their hashes.
entries() { (cd "$1" && find . -type f ! -name RunNotifier.class -print0 | sort -z | xargs -0 sha256sum); }
notifier=org/junit/runner/notification/RunNotifier.class
if ((${#hooked[@]} == 1)) && [[ -f ${hooked[0]} && -f $junit_jar ]] &&
    [[ $(sha1sum "$junit_jar" | cut -d' ' -f1) == "$(basename "$(dirname "$junit_jar")")" ]] &&
    mkdir -p "$work/junit-original" "$work/junit-hooked" &&
    unzip -qo "$junit_jar" -d "$work/junit-original" && unzip -qo "${hooked[0]}" -d "$work/junit-hooked" &&
    [[ $(entries "$work/junit-original") == "$(entries "$work/junit-hooked")" ]] &&
    ! cmp -s "$work/junit-original/$notifier" "$work/junit-hooked/$notifier"; then
    pass "per-test: demo: build/jp/junit holds junit's jar with RunNotifier hooked and every other entry the same; junit's jar untouched"
else
    fail "per-test: demo: a hooked copy of junit's jar in build/jp/junit (found: ${hooked[*]})"
fi

html=$demo/build/reports/jp/index.html
text=$demo/build/reports/jp/report.txt
if complete_page "$html" &&
    grep -q 'Leaderboard.rank' "$html" && grep -qF 'org.example.leaderboard.Leaderboard.rank(java.util.List):java.util.List' "$text" &&
    grep -q "^jp: report of [0-9]* profiles\{0,1\}: $html and report.txt" "$work/demo.log"; then
    pass "demo: jpReport wrote build/reports/jp/index.html ($(wc -c <"$html") bytes, a complete page) and report.txt naming Leaderboard.rank"
else
    fail "demo: jpReport wrote build/reports/jp/index.html (a complete page) and report.txt naming Leaderboard.rank"
    show "$work/demo.log"; [[ -f $text ]] && show "$text" 15
fi

# The demo's main class as the application plugin gives it, from an init script (the demo itself
# has none), so that jpIdeSetup writes a run configuration for it beside the tests' one.
cat >"$work/ide-main.gradle" <<'GRADLE'
allprojects {
    apply plugin: 'application'
    if (GradleVersion.current() < GradleVersion.version('6.4')) {
        mainClassName = 'org.example.leaderboard.Main'
    } else {
        application.mainClass.set('org.example.leaderboard.Main')
    }
}
GRADLE
if gradle_run ide "$demo" -I "$work/ide-main.gradle" jpIdeSetup; then
    check_ide_settings jpIdeSetup "$demo" "JP gradle-demo" "$demo/build/jp/ide.txt" "$demo/build/jp/profiles" \
        "$demo/build/jp/classes/main" "$demo/build/classes/java/main"
else
    fail "ide: jpIdeSetup prints the class path and JVM options"; show "$work/ide.log"
fi
rm -rf "$demo/.run" "$demo/build/jp/ide.txt"
cat >"$work/ide-off.gradle" <<'GRADLE'
allprojects {
    tasks.matching { it.name == 'jpIdeSetup' }.all { ideFiles = false }
}
GRADLE
if gradle_run ide-off "$demo" -I "$work/ide-off.gradle" jpIdeSetup && [[ -f $demo/build/jp/ide.txt && ! -e $demo/.run ]]; then
    pass "ide: jpIdeSetup { ideFiles = false } writes build/jp/ide.txt and no run configuration"
else
    fail "ide: jpIdeSetup { ideFiles = false } writes build/jp/ide.txt and no run configuration"; show "$work/ide-off.log"
fi

# --- 3b. two builds at once in one project --------------------------------------------------------
# Each build's tests write into a run directory of their own, and each jpReport reports its own
# run: one profile, with the calls of one run (the demo's above), not those of both. (Gradle 4.4.1
# runs the two side by side. Each build writes the test task's own reports and results, and its JP
# report, into directories of its own: two builds writing one output directory at once can fail
# Gradle's snapshot of it, JP or not. The directory of the runs is shared: that is what is tested.)
twice=$work/twice
copy_project "$root/examples/gradle-demo" "$twice"
cat >>"$twice/build.gradle" <<'GRADLE'

def side = project.findProperty("side")
jpReport { outputDir = file("build/reports/jp-" + side) }
jpProfileTest {
    def html = file("build/reports/tests-" + side)
    def xml = file("build/test-results-" + side)
    def binary = file("build/test-results-" + side + "/binary")
    if (GradleVersion.current() < GradleVersion.version("6.1")) {
        reports.html.destination = html
        reports.junitXml.destination = xml
        binResultsDir = binary
    } else {
        reports.html.outputLocation.set(html)
        reports.junitXml.outputLocation.set(xml)
        binaryResultsDirectory.set(binary)
    }
}
GRADLE
single_calls=$(total_calls "$demo"/build/jp/profiles/jpProfileTest/run-*/*.jpprof)
if gradle_run twice-prepare "$twice" testClasses jpInstrument; then
    gradle_run twice-1 "$twice" "${tasks[@]}" -Pside=1 & first=$!
    gradle_run twice-2 "$twice" "${tasks[@]}" -Pside=2 & second=$!
    wait "$first"; first_status=$?
    wait "$second"; second_status=$?
    runs=("$twice"/build/jp/profiles/jpProfileTest/run-*/)
    totals=()
    for run in "${runs[@]}"; do
        totals+=("$(total_calls "$run"/*.jpprof)")
    done
    if ((first_status == 0 && second_status == 0)) && ((${#runs[@]} == 2)) &&
        [[ ${totals[*]} == "$single_calls $single_calls" ]] &&
        grep -q "^jp: report of 1 profile: $twice/build/reports/jp-1/" "$work/twice-1.log" &&
        grep -q "^jp: report of 1 profile: $twice/build/reports/jp-2/" "$work/twice-2.log"; then
        pass "at once: two builds of jpProfileTest in one project, each with a run of its own ($single_calls calls each) and a report of it"
    else
        fail "at once: two builds, a run each (runs: ${#runs[@]}, calls: ${totals[*]:-none}, one run: $single_calls)"
        grep -h '^jp: report of' "$work/twice-1.log" "$work/twice-2.log"; show "$work/twice-1.log" 10; show "$work/twice-2.log" 10
    fi
else
    fail "at once: gradle testClasses jpInstrument"; show "$work/twice-prepare.log"
fi

# --- 4. incremental work --------------------------------------------------------------------------
if gradle_run again "$demo" "${tasks[@]}" &&
    task_outcome again jpInstrument UP-TO-DATE && task_outcome again jpProfileTest UP-TO-DATE; then
    pass "incremental: nothing changed, jpInstrument and jpProfileTest UP-TO-DATE"
else
    fail "incremental: nothing changed, jpInstrument and jpProfileTest UP-TO-DATE"; show "$work/again.log"
fi

classes=$(find "$demo/build/classes/java/main" -name '*.class' | wc -l)
if gradle_run rerun "$demo" jpInstrument --rerun-tasks &&
    [[ $(instrumented rerun jpInstrument) == *": 0 rewritten, $classes reused,"* ]]; then
    pass "incremental: rerun, the engine reuses all $classes classes ($(instrumented rerun jpInstrument | sed 's/.*: //'))"
else
    fail "incremental: rerun, the engine reuses all $classes classes: $(instrumented rerun jpInstrument)"; show "$work/rerun.log"
fi

sed -i 's/throw new IllegalArgumentException("no players")/throw new IllegalArgumentException("no players at all")/' \
    "$demo/src/main/java/org/example/leaderboard/Stats.java"
if gradle_run edit "$demo" jpInstrument &&
    [[ $(instrumented edit jpInstrument) == *": 1 rewritten, $((classes - 1)) reused,"* ]]; then
    pass "incremental: one class edited, one rewritten ($(instrumented edit jpInstrument | sed 's/.*: //'))"
else
    fail "incremental: one class edited, one rewritten: $(instrumented edit jpInstrument)"; show "$work/edit.log"
fi
clean=$work/clean
cp -r "$demo" "$clean"
rm -rf "$clean/build" "$clean/.gradle"
if gradle_run clean "$clean" jpInstrument && diff -r "$demo/build/jp/classes/main" "$clean/build/jp/classes/main" >"$work/diff.log"; then
    pass "incremental: the output after the edit equals a clean build's, byte for byte"
else
    fail "incremental: the output after the edit equals a clean build's, byte for byte"; show "$work/diff.log"
fi

rm "$demo/src/main/java/org/example/leaderboard/Main.java"
if gradle_run delete "$demo" jpInstrument &&
    [[ $(instrumented delete jpInstrument) == *" 1 deleted,"* ]] &&
    [[ ! -e $demo/build/jp/classes/main/org/example/leaderboard/Main.class ]]; then
    pass "incremental: a deleted class loses its instrumented class"
else
    fail "incremental: a deleted class loses its instrumented class: $(instrumented delete jpInstrument)"; show "$work/delete.log"
fi

# The build cache: a copy of the project in another directory takes jpInstrument's output from
# the cache (its inputs are relocatable), and the engine, without its cache, writes the same bytes.
shared_cache=$work/build-cache
for dir in "$clean" "$work/relocated"; do
    if [[ $dir == "$work/relocated" ]]; then cp -r "$clean" "$dir"; rm -rf "$dir/build" "$dir/.gradle"; fi
    printf 'buildCache {\n    local {\n        directory = file("%s")\n    }\n}\n' "$shared_cache" >>"$dir/settings.gradle"
done
if gradle_run cache-store "$clean" clean jpInstrument --build-cache &&
    gradle_run cache-load "$work/relocated" jpInstrument --build-cache &&
    task_outcome cache-load jpInstrument FROM-CACHE &&
    gradle_run cache-rerun "$work/relocated" jpInstrument --rerun-tasks &&
    diff -r "$clean/build/jp/classes/main" "$work/relocated/build/jp/classes/main" >"$work/diff.log"; then
    pass "build cache: a relocated copy takes jpInstrument FROM-CACHE; rerun without the engine's cache, same bytes"
else
    fail "build cache: a relocated copy takes jpInstrument FROM-CACHE"; show "$work/cache-load.log"; show "$work/diff.log"
fi

# --- 5. one daemon --------------------------------------------------------------------------------
# (Not on the Gradle 8 harness, which has no daemon.)
if [[ $suite == gradle ]]; then
    daemon=$work/daemon
    copy_project "$root/examples/gradle-demo" "$daemon"
    mkdir -p "$daemon/extra"
    in_daemon() { # NAME ARGS...: a build in the suite's own daemon, with its own engine cache
        local name=$1
        shift
        (cd "$daemon" && GRADLE_USER_HOME=$daemon_home gradle --daemon --console=plain --offline \
            -Dmaven.repo.local="$repo" -Djp.engine.cacheDir="$work/daemon-engine" "$@") >"$work/$name.log" 2>&1
    }
    if in_daemon daemon1 jpInstrument && in_daemon daemon2 jpInstrument --rerun-tasks &&
        ! grep -q 'Starting a Gradle Daemon' "$work/daemon2.log" &&
        [[ $(instrumented daemon2 jpInstrument) == *": 0 rewritten, "* ]]; then
        pass "daemon: two builds in a row in one daemon"
    else
        fail "daemon: two builds in a row in one daemon"; show "$work/daemon1.log" 10; show "$work/daemon2.log"
    fi
    # Another build-script class path: Gradle loads the plugin, and so the engine, in a new class loader.
    sed -i "s|classpath 'org.jpprof:jp-gradle-plugin|classpath files('extra')\n        &|" "$daemon/build.gradle"
    # jpReport reads the demo's profiles (this daemon's home has no junit for jpProfileTest, offline).
    mkdir -p "$daemon/build/jp/profiles/jpProfileTest/run-copied"
    cp "$demo"/build/jp/profiles/jpProfileTest/run-*/*.jpprof "$daemon/build/jp/profiles/jpProfileTest/run-copied/"
    if in_daemon daemon3 jpInstrument jpReport --rerun-tasks && ! grep -q 'Starting a Gradle Daemon' "$work/daemon3.log" &&
        [[ $(instrumented daemon3 jpInstrument) == *": 0 rewritten, "* ]] &&
        grep -q '^jp: report of [0-9]* profiles\{0,1\}: ' "$work/daemon3.log" &&
        compgen -G "$work/daemon-engine/libjp_jni-*-1.so" >/dev/null; then
        pass "daemon: a second class loader in the same daemon loads the engine (a copy of its library), instruments and reports"
    else
        fail "daemon: a second class loader in the same daemon loads the engine"; show "$work/daemon3.log"
    fi
fi

# --- 6. several modules ---------------------------------------------------------------------------
# app's tests run core's classes (core's jar on their class path) instrumented by core's
# jpInstrument: TableTest's row(7) calls Fib.fib 59 times (1+1+3+5+9+15+25 for fib(0..6)). The
# root project's jpAggregateReport merges both projects' profiles. -Pjp.skip skips every task of
# JP's in every project, and no run of profiles starts.
multi=$work/multi
copy_project "$root/integration-tests/gradle/multi-module" "$multi"
# calls_of PROFILES... : the calls of Fib.fib in them, all contexts together.
fib_calls() { "$jp" report "$@" --format folded --metric calls | awk '$0 ~ /;org\.acme\.core\.Fib\.fib\(int\):long [0-9]+$/ { n += $NF } END { print n + 0 }'; }
if gradle_run multi "$multi" "${tasks[@]}" jpAggregateReport; then
    core_profiles=("$multi"/core/build/jp/profiles/jpProfileTest/run-*/*.jpprof)
    app_profiles=("$multi"/app/build/jp/profiles/jpProfileTest/run-*/*.jpprof)
    if [[ -f ${core_profiles[0]} && -f ${app_profiles[0]} ]] &&
        grep -q 'org.acme.core.Fib.fib' "$multi/core/build/reports/jp/report.txt" &&
        grep -q 'org.acme.app.Table.row' "$multi/app/build/reports/jp/report.txt" &&
        [[ $(tail -c 8 "$multi/core/build/reports/jp/index.html") == '</html>'* && $(tail -c 8 "$multi/app/build/reports/jp/index.html") == '</html>'* ]] &&
        "$jp" report "${core_profiles[@]}" --format folded --metric calls | grep -q '^\[test\] org\.acme\.core\.FibTest#[^;]*;org.acme.core.Fib.fib(int):long;org.acme.core.Fib.fib(int):long' &&
        "$jp" report "${app_profiles[@]}" --format folded --metric calls | grep -q '^\[test\] org\.acme\.app\.TableTest#[^;]*;org.acme.app.Table.row(int):java.lang.String'; then
        pass "multi: two modules, app depending on core, each profiled on its instrumented classes (under each test's context), each with its report"
    else
        fail "multi: profiles and reports of core (Fib.fib) and app (Table.row)"
    fi
    app_fib=$(fib_calls "${app_profiles[@]}")
    if [[ $app_fib == 59 ]] &&
        "$jp" report "${app_profiles[@]}" --format folded --metric calls | grep -q '^\[test\] org\.acme\.app\.TableTest#[^;]*;org.acme.app.Table.row(int):java.lang.String;org.acme.core.Fib.fib(int):long '; then
        pass "multi: app's tests run core's classes instrumented: Fib.fib called exactly 59 times under TableTest's Table.row"
    else
        fail "multi: core's classes instrumented in app's tests (Fib.fib calls in app's profile: $app_fib, expected 59)"
    fi
    aggregate=$multi/build/reports/jp/aggregate
    if grep -q 'org.acme.core.Fib.fib' "$aggregate/report.txt" && grep -q 'org.acme.app.Table.row' "$aggregate/report.txt" &&
        grep -q 'org.acme.core.FibTest' "$aggregate/report.txt" && grep -q 'org.acme.app.TableTest' "$aggregate/report.txt" &&
        [[ $(tail -c 8 "$aggregate/index.html") == '</html>'* ]]; then
        pass "multi: the root project's jpAggregateReport holds both projects' tests and methods"
    else
        fail "multi: jpAggregateReport of core and app"; show "$work/multi.log"
    fi
    runs_before=$(find "$multi"/*/build/jp/profiles/jpProfileTest -maxdepth 1 -name 'run-*' | wc -l)
    if gradle_run multi-skip "$multi" "${tasks[@]}" jpAggregateReport -Pjp.skip --rerun-tasks &&
        ! grep -q 'jpInstrument' "$work/multi-skip.log" && task_outcome multi-skip core:jpProfileTest SKIPPED &&
        task_outcome multi-skip app:jpReport SKIPPED && task_outcome multi-skip jpAggregateReport SKIPPED &&
        [[ $(find "$multi"/*/build/jp/profiles/jpProfileTest -maxdepth 1 -name 'run-*' | wc -l) == "$runs_before" ]]; then
        pass "multi: -Pjp.skip skips every task of JP's in every project, instruments nothing; no run of profiles started"
    else
        fail "multi: -Pjp.skip skips JP's tasks"; show "$work/multi-skip.log"
    fi
else
    fail "multi: gradle jpProfileTest jpAggregateReport"; show "$work/multi.log"
fi

# --- 6a. JP on any test task ----------------------------------------------------------------------
# `test { jp { enabled = true } }` (with a filter) and a test task of the build's own
# (integrationTest, another filter, forkEvery): `gradle test integrationTest` profiles both, each
# into build/jp/profiles/<task>/ with its own tests, and one jpReport follows and merges both runs.
# jpProfileTest, run as test runs, keeps test's filter.
tasks_dir=$work/test-tasks
copy_project "$root/examples/gradle-demo" "$tasks_dir"
cat >>"$tasks_dir/build.gradle" <<'GRADLE'

test {
    filter {
        includeTestsMatching '*StatsTest'
    }
    jp {
        enabled = true
    }
}

task integrationTest(type: Test) {
    testClassesDirs = sourceSets.test.output.classesDirs
    classpath = sourceSets.test.runtimeClasspath
    filter {
        includeTestsMatching '*LeaderboardTest'
    }
    forkEvery = 1
    jp {
        enabled = true
    }
}
GRADLE
# tests_in PROFILES...: the test classes that have contexts in them.
tests_in() { "$jp" report "$@" --format folded --metric calls | sed -n 's/^\[test\] [a-z.]*\.\([A-Za-z]*\)#.*/\1/p' | sort -u | tr '\n' ' '; }
if gradle_run test-tasks "$tasks_dir" test integrationTest; then
    test_profiles=("$tasks_dir"/build/jp/profiles/test/run-*/test-*.jpprof)
    it_profiles=("$tasks_dir"/build/jp/profiles/integrationTest/run-*/integrationTest-*.jpprof)
    if [[ -f ${test_profiles[0]} && -f ${it_profiles[0]} ]] &&
        [[ $(tests_in "${test_profiles[@]}") == 'StatsTest ' && $(tests_in "${it_profiles[@]}") == 'LeaderboardTest ' ]] &&
        [[ $(grep -c '^jp: report of ' "$work/test-tasks.log") == 1 ]] && grep -q '^jp: report of 2 profiles' "$work/test-tasks.log" &&
        grep -q 'Leaderboard.rank' "$tasks_dir/build/reports/jp/report.txt"; then
        pass "test tasks: test and integrationTest with jp.enabled each profile their own tests (their filters kept), and one jpReport merges both"
    else
        fail "test tasks: test and integrationTest with jp.enabled profile their tests (test: $(tests_in "${test_profiles[@]}"), integrationTest: $(tests_in "${it_profiles[@]}"))"; show "$work/test-tasks.log"
    fi
else
    fail "test tasks: gradle test integrationTest with jp.enabled"; show "$work/test-tasks.log"
fi
if gradle_run test-tasks-copy "$tasks_dir" jpProfileTest &&
    profile_test=("$tasks_dir"/build/jp/profiles/jpProfileTest/run-*/*.jpprof) &&
    [[ $(tests_in "${profile_test[@]}") == 'StatsTest ' ]]; then
    pass "test tasks: jpProfileTest runs the tests as test does, test's filter included"
else
    fail "test tasks: jpProfileTest keeps test's filter"; show "$work/test-tasks-copy.log"
fi

# --- 6b. TestNG -----------------------------------------------------------------------------------
# The maven-plugin suite's TestNG project (its sources, the TestNG of its POM) built with
# useTestNG(): nothing of JP's in the build script but the plugin; TestNG loads JP's listener.
testng=$work/testng
testng_release=$(testng_version)
mkdir -p "$testng" && cp -r "$root/integration-tests/maven/testng-demo/src" "$testng/"
cat >"$testng/build.gradle" <<GRADLE
buildscript {
    repositories { mavenLocal() }
    dependencies { classpath 'org.jpprof:jp-gradle-plugin:$version' }
}
apply plugin: 'java'
apply plugin: 'org.jpprof.jp'
repositories { mavenCentral() }
dependencies { testImplementation 'org.testng:testng:$testng_release' }
test { useTestNG() }
GRADLE
testng_runs=$testng/build/jp/profiles/jpProfileTest
if needs=org.testng gradle_run testng "$testng" jpProfileTest && first=$(ls -d "$testng_runs"/run-*/) &&
    needs=org.testng gradle_run testng-again "$testng" jpProfileTest --rerun-tasks; then
    second=$(ls -d "$testng_runs"/run-*/ | grep -vxF "$first")
    check_testng "testng (TestNG $testng_release, useTestNG())" "$first" "${second:-none}"
else
    fail "per-test: testng: gradle jpProfileTest with useTestNG() (TestNG ${testng_release:-?})"; show "$work/testng.log"; show "$work/testng-again.log"
fi

# --- 7. bad input ---------------------------------------------------------------------------------
bad=$work/bad
copy_project "$root/examples/gradle-demo" "$bad"
if gradle_run bad-classes "$bad" classes; then
    broken=$bad/build/classes/java/main/org/example/leaderboard/Broken.class
    printf '\xca\xfe\xba\xbe\x00\x00\x00\x3d\x00\x10garbage' >"$broken"
    if gradle_run bad "$bad" jpInstrument -x compileJava; then
        fail "bad input: a corrupt class fails jpInstrument"; show "$work/bad.log"
    elif grep -q 'Broken.class' "$work/bad.log" && grep -q 'could not be instrumented' "$work/bad.log" &&
        no_crash "$bad" "$work" "$GRADLE_USER_HOME/daemon"; then
        pass "bad input: a corrupt class fails jpInstrument naming it: $(grep -m1 'Broken.class' "$work/bad.log" | sed 's/^ *//')"
    else
        fail "bad input: the failure names Broken.class, and no JVM crashed"; show "$work/bad.log"
    fi
    rm -f "$broken"
else
    fail "bad input: gradle classes"; show "$work/bad-classes.log"
fi

# Sources but no classes (compileJava excluded on a clean copy): jpInstrument fails naming the
# directory, instead of instrumenting nothing.
uncompiled=$work/uncompiled
copy_project "$root/examples/gradle-demo" "$uncompiled"
if gradle_run uncompiled "$uncompiled" jpInstrument -x compileJava; then
    fail "bad input: jpInstrument with sources but no classes fails"; show "$work/uncompiled.log"
elif grep -q "jp: jpInstrument: no class files in build/classes/java/main, but there are sources (src/main/java/.*\.java): compile them first" "$work/uncompiled.log"; then
    pass "bad input: jpInstrument with sources but no classes fails: $(grep -m1 -o 'jp: jpInstrument: no class files.*first' "$work/uncompiled.log")"
else
    fail "bad input: jpInstrument with sources but no classes names build/classes/java/main"; show "$work/uncompiled.log"
fi

# Settings the runtime would only warn about fail the build, naming the setting.
for setting in "agent = 'a periodic agent'" "granularity = 'ten'"; do
    name=${setting%% *}
    wrong=$work/wrong-$name
    copy_project "$root/examples/gradle-demo" "$wrong"
    printf '\njp {\n    %s\n}\n' "$setting" >>"$wrong/build.gradle"
    if gradle_run "wrong-$name" "$wrong" jpProfileTest; then
        fail "bad input: jp { $setting } fails the build"; show "$work/wrong-$name.log"
    elif grep -q "jp: jp.$name = '[^']*' is \(neither\|not\).*in the jp { } block of project :" "$work/wrong-$name.log"; then
        pass "bad input: jp { $setting } fails the build: $(grep -m1 -o "jp: jp.$name = .*" "$work/wrong-$name.log")"
    else
        fail "bad input: jp { $setting } fails the build naming jp.$name"; show "$work/wrong-$name.log"
    fi
done

# An output directory that cannot be created: a file stands where it should be.
blocked=$bad/build/jp/classes/main
rm -rf "$blocked" && mkdir -p "$(dirname "$blocked")" && echo 'not a directory' >"$blocked"
if gradle_run bad-output "$bad" jpInstrument -x compileJava; then
    fail "bad input: an output directory that cannot be created fails jpInstrument"; show "$work/bad-output.log"
elif grep -q "$blocked" "$work/bad-output.log" && no_crash "$bad" "$work" "$GRADLE_USER_HOME/daemon"; then
    pass "bad input: an output directory that cannot be created fails jpInstrument naming it: $(grep -m1 "$blocked" "$work/bad-output.log" | sed 's/^ *//')"
else
    fail "bad input: the failure names $blocked, and no JVM crashed"; show "$work/bad-output.log"
fi
rm -f "$blocked"

# An unreadable profile, and a report file that cannot be written: jpReport fails naming the file.
profiles_dir=$bad/build/jp/profiles/jpProfileTest/run-copied
reports=$bad/build/reports/jp
mkdir -p "$profiles_dir"
cp "$demo"/build/jp/profiles/jpProfileTest/run-*/*.jpprof "$profiles_dir/"
printf 'jp-profile 1\nframe 1 x\n' >"$profiles_dir/truncated.jpprof"
if gradle_run bad-profile "$bad" jpReport; then
    fail "bad input: an unreadable profile fails jpReport"; show "$work/bad-profile.log"
elif grep -q "$profiles_dir/truncated.jpprof:3: truncated" "$work/bad-profile.log" &&
    [[ ! -e $reports/index.html ]] && no_crash "$bad" "$work" "$GRADLE_USER_HOME/daemon"; then
    pass "bad input: an unreadable profile fails jpReport naming it, and no report is written: $(grep -m1 'truncated.jpprof' "$work/bad-profile.log" | sed 's/^ *//')"
else
    fail "bad input: the failure names truncated.jpprof, and no report is written"; show "$work/bad-profile.log"
fi
rm -f "$profiles_dir/truncated.jpprof"
# A directory, with a file in it, where the report file should go: it cannot be replaced.
mkdir -p "$reports/index.html/in-the-way"
if gradle_run bad-report "$bad" jpReport; then
    fail "bad input: a report file that cannot be written fails jpReport"; show "$work/bad-report.log"
elif grep -q "$reports/index.html: " "$work/bad-report.log" && no_crash "$bad" "$work" "$GRADLE_USER_HOME/daemon"; then
    pass "bad input: a report file that cannot be written fails jpReport naming it: $(grep -m1 "$reports/index.html: " "$work/bad-report.log" | sed 's/^ *//')"
else
    fail "bad input: the failure names $reports/index.html, and no JVM crashed"; show "$work/bad-report.log"
fi
rm -rf "$reports/index.html"
# No profiles at all: jpReport succeeds and says where it looked.
rm -f "$profiles_dir"/*.jpprof
if gradle_run no-profiles "$bad" jpReport &&
    grep -q "^jp: no profiles to report on in ${profiles_dir%/*/*}; run jpProfileTest first" "$work/no-profiles.log"; then
    pass "no profiles: jpReport says so and succeeds"
else
    fail "no profiles: jpReport says so and succeeds"; show "$work/no-profiles.log"
fi

# A jp-engine without the runtime jar inside: jpProfileTest fails naming that jar and the missing
# entry.
norepo=$work/m2-no-runtime
cp -r "$repo" "$norepo" &&
    zip -q -d "$norepo/org/jpprof/jp-engine/$version/jp-engine-$version.jar" org/jpprof/engine/jp-runtime.jar
if use_repo=$norepo gradle_run no-runtime "$bad" jpProfileTest; then
    fail "bad input: a jp-engine without the runtime fails jpProfileTest"; show "$work/no-runtime.log"
elif grep -q "jp-engine-$version.jar: this jp-engine has no org/jpprof/engine/jp-runtime.jar" "$work/no-runtime.log" && no_crash "$bad" "$work" "$GRADLE_USER_HOME/daemon"; then
    pass "bad input: a missing runtime fails jpProfileTest naming it: $(grep -m1 'jp-runtime.jar' "$work/no-runtime.log" | sed 's/^ *//')"
else
    fail "bad input: the failure names jp-engine-$version.jar and its missing org/jpprof/engine/jp-runtime.jar, and no JVM crashed"; show "$work/no-runtime.log"
fi

# --- 7b. the regression gate ----------------------------------------------------------------------
# jpBaseline records the demo's counts; a second run of the tests records the same bytes; jpCheck
# passes on the same code, fails naming Leaderboard.rank with its numbers once rank does more work,
# lets that through with tolerances set for it and for the tests that run it (each test has its own
# totals), and passes again once the change is reverted. A
# baseline of other settings is refused, a missing one explained (docs/regression-testing.md).
gate=$work/gate
copy_project "$root/examples/gradle-demo" "$gate"
cat >>"$gate/build.gradle" <<'GRADLE'
jp {
    methodFloor = 0
    if (project.hasProperty('gateBaseline')) { baseline = project.property('gateBaseline') }
    if (project.hasProperty('gateTolerant')) {
        tolerances = ['org.example.leaderboard.Leaderboard.rank*': 1000000, 'org.example.leaderboard.LeaderboardTest#*': 1000000]
    }
}
GRADLE
rank='org.example.leaderboard.Leaderboard.rank(Ljava/util/List;)Ljava/util/List;'
leaderboard=$gate/src/main/java/org/example/leaderboard/Leaderboard.java
cp "$leaderboard" "$work/Leaderboard.java.orig"
if gradle_run gate-baseline "$gate" jpBaseline && grep -q "^method [0-9]* [0-9]* $rank\$" "$gate/jp-baseline.txt" &&
    grep -q '^setting bba precise$' "$gate/jp-baseline.txt" && grep -q "^jp: baseline .*jp-baseline.txt: " "$work/gate-baseline.log"; then
    pass "gate: jpBaseline wrote jp-baseline.txt ($(wc -l <"$gate/jp-baseline.txt") lines, bba precise, Leaderboard.rank recorded)"
else
    fail "gate: jpBaseline wrote jp-baseline.txt"; show "$work/gate-baseline.log"
fi
cp "$gate/jp-baseline.txt" "$work/baseline-1.txt" 2>/dev/null
# Per-test totals too: the baseline holds a `test` line for each test context (3a).
test_lines=$(grep -c '^test [0-9]* [0-9]* org\.example\.leaderboard\.[A-Za-z]*Test#[a-zA-Z]*()$' "$work/baseline-1.txt" 2>/dev/null)
if gradle_run gate-again "$gate" cleanJpProfileTest jpBaseline && cmp -s "$work/baseline-1.txt" "$gate/jp-baseline.txt" &&
    ((${test_lines:-0} > 0)); then
    pass "gate: a second run of the tests gives a byte-identical baseline ($test_lines per-test totals in it)"
else
    fail "gate: a second run of the tests gives a byte-identical baseline with per-test totals (${test_lines:-0} test lines)"; diff "$work/baseline-1.txt" "$gate/jp-baseline.txt" | head -20
fi
if gradle_run gate-pass "$gate" jpCheck && grep -q '^jp check: passed' "$work/gate-pass.log"; then
    pass "gate: jpCheck passes on the same code"
else
    fail "gate: jpCheck passes on the same code"; show "$work/gate-pass.log"
fi
sed -i 's|List<Player> ranked = new ArrayList<>(players);|List<Player> ranked = new ArrayList<>(players);\n        for (int k = 0; k < 100000; k++) { ranked.size(); }|' "$leaderboard"
regression="regression: method $rank: [0-9]* -> [0-9]* bytecodes (+[0-9]*, +[0-9.]*%; tolerance 1%)"
if ! gradle_run gate-fail "$gate" jpCheck && grep -q "^$regression" "$work/gate-fail.log" &&
    grep -q 'jp: [0-9]* regressions\{0,1\} beyond the tolerance against' "$work/gate-fail.log" &&
    grep -qF "| method | \`$rank\` |" "$gate/build/reports/jp/check/jp-check.md"; then
    pass "gate: jpCheck fails once rank does more work: $(grep -m1 -o "^$regression" "$work/gate-fail.log")"
else
    fail "gate: jpCheck fails naming Leaderboard.rank with its numbers"; show "$work/gate-fail.log"
fi
# jpBaseline kept the profiles it recorded, so the failing check wrote the diff of them against
# its run; `jp diff` of the same two runs ranks rank first.
gate_runs=("$gate"/build/jp/profiles/jpProfileTest/run-*)
page=$gate/build/reports/jp/check-diff.html
check_gate_diff jpCheck "$work/gate-fail.log" "$page" "$page" "$gate/build/jp/baseline-profiles" "${gate_runs[-1]}"
# Without them (a fresh clone), the failure says so and gives the jp diff command.
mv "$gate/build/jp/baseline-profiles" "$work/baseline-profiles" && rm -f "$page"
if ! gradle_run gate-unkept "$gate" jpCheck && [[ ! -e $page ]] &&
    grep -q "no profiles of the baseline's run in .*baseline-profiles to diff against: run jpBaseline" "$work/gate-unkept.log" &&
    grep -q 'jp diff <profiles of the baseline' "$work/gate-unkept.log"; then
    pass "gate: without the baseline's profiles, the failing jpCheck says so and how to get the diff"
else
    fail "gate: without the baseline's profiles, the failing jpCheck says so and how to get the diff"; show "$work/gate-unkept.log"
fi
mv "$work/baseline-profiles" "$gate/build/jp/baseline-profiles"
if gradle_run gate-tolerant "$gate" jpCheck -PgateTolerant && grep -q '^jp check: passed' "$work/gate-tolerant.log"; then
    pass "gate: tolerances set for Leaderboard.rank and the tests of LeaderboardTest let that regression through"
else
    fail "gate: tolerances set for Leaderboard.rank and the tests of LeaderboardTest let that regression through"; show "$work/gate-tolerant.log"
fi
cp "$work/Leaderboard.java.orig" "$leaderboard"
if gradle_run gate-reverted "$gate" jpCheck && grep -q '^jp check: passed' "$work/gate-reverted.log"; then
    pass "gate: jpCheck passes again once the change is reverted"
else
    fail "gate: jpCheck passes again once the change is reverted"; show "$work/gate-reverted.log"
fi
sed 's/^setting bba .*/setting bba default/' "$gate/jp-baseline.txt" >"$gate/other.txt"
if ! gradle_run gate-other "$gate" jpCheck -PgateBaseline=other.txt &&
    grep -q 'other.txt: recorded with other settings than these profiles.*bba is `default` in the baseline, `precise` now' "$work/gate-other.log"; then
    pass "gate: a baseline of other settings is refused, naming the setting"
else
    fail "gate: a baseline of other settings is refused"; show "$work/gate-other.log"
fi
if ! gradle_run gate-missing "$gate" jpCheck -PgateBaseline=none.txt &&
    grep -q 'none.txt: no baseline here; record one .*gradle jpBaseline' "$work/gate-missing.log"; then
    pass "gate: a missing baseline fails saying how to record one"
else
    fail "gate: a missing baseline fails saying how to record one"; show "$work/gate-missing.log"
fi

# --- 8. the plugin marker -------------------------------------------------------------------------
release=${version%-SNAPSHOT}
marker=$work/marker
if [[ $release != "$version" ]] && ! install_jp "$repo" "$release" "${modules[@]}"; then
    fail "marker: cannot install $release"
else
    copy_project "$root/integration-tests/gradle/plugins-block" "$marker"
    sed -i "s/id 'org.jpprof.jp' version '[^']*'/id 'org.jpprof.jp' version '$release'/" "$marker/build.gradle"
    if gradle_run marker "$marker" tasks --all && grep -q '^jpProfileTest - ' "$work/marker.log"; then
        pass "marker: plugins { id 'org.jpprof.jp' version '$release' } finds the plugin"
    else
        fail "marker: plugins { id 'org.jpprof.jp' version '$release' } finds the plugin"; show "$work/marker.log"
    fi
fi

# --- 9. a modern Gradle ----------------------------------------------------------------------------
# On Gradle 8: the demo with deprecations as errors, and a JUnit 5 project whose parameterized
# test's invocations are told apart, each with its @BeforeEach, as under Maven.
if [[ $suite == gradle8 ]]; then
    strict=$work/strict
    copy_project "$root/examples/gradle-demo" "$strict"
    if gradle_run strict "$strict" "${tasks[@]}" --warning-mode fail; then
        pass "modern: gradle ${tasks[*]} --warning-mode fail: no deprecation"
    else
        fail "modern: gradle ${tasks[*]} --warning-mode fail"; show "$work/strict.log"
    fi
    # The configuration cache: stored by a first `clean` build, reused by the second and by a third
    # with an unrelated environment variable changed; each runs the tests and reports that run.
    cached=$work/cached
    copy_project "$root/examples/gradle-demo" "$cached"
    cc=(clean "${tasks[@]}" --configuration-cache)
    if JP_UNRELATED=1 gradle_run cc-1 "$cached" "${cc[@]}" && grep -q '^Configuration cache entry stored' "$work/cc-1.log" &&
        JP_UNRELATED=1 gradle_run cc-2 "$cached" "${cc[@]}" && grep -q '^Configuration cache entry reused' "$work/cc-2.log" &&
        JP_UNRELATED=2 gradle_run cc-3 "$cached" "${cc[@]}" && grep -q '^Configuration cache entry reused' "$work/cc-3.log" &&
        grep -q "^jp: report of 1 profile: $cached/build/reports/jp/index.html" "$work/cc-3.log" &&
        [[ $(total_calls "$cached"/build/jp/profiles/jpProfileTest/run-*/*.jpprof) == "$single_calls" ]]; then
        pass "configuration cache: stored by gradle ${cc[*]}, reused twice (once with an environment variable changed), each build profiling its tests ($single_calls calls) and reporting them"
    else
        fail "configuration cache: stored, reused, reused with another environment"
        show "$work/cc-1.log" 15; show "$work/cc-2.log" 15; show "$work/cc-3.log" 15
    fi

    # A JVM test suite (integrationTest) of app with JP enabled on its test task: its class path
    # holds app's own jar and core's jar, and both run instrumented: Fib.fib 59 times under
    # Table.row. The whole two-project build under the configuration cache, stored then reused,
    # with deprecations as errors.
    suites=$work/suites
    copy_project "$root/integration-tests/gradle/multi-module" "$suites"
    mkdir -p "$suites/app/src/integrationTest/java/org/acme/app"
    sed 's/class TableTest/class TableIT/' "$suites/app/src/test/java/org/acme/app/TableTest.java" \
        >"$suites/app/src/integrationTest/java/org/acme/app/TableIT.java"
    cat >"$suites/app/build.gradle" <<'GRADLE'
testing {
    suites {
        integrationTest(JvmTestSuite) {
            useJUnit('4.13.2')
            targets.all {
                testTask.configure {
                    jp {
                        enabled = true
                    }
                }
            }
        }
    }
}

dependencies {
    integrationTestImplementation project(':app')
}
GRADLE
    it_cc=(clean :app:integrationTest jpAggregateReport --configuration-cache --warning-mode fail)
    if gradle_run suites-1 "$suites" "${it_cc[@]}" && grep -q '^Configuration cache entry stored' "$work/suites-1.log" &&
        gradle_run suites-2 "$suites" "${it_cc[@]}" && grep -q '^Configuration cache entry reused' "$work/suites-2.log" &&
        it_profiles=("$suites"/app/build/jp/profiles/integrationTest/run-*/*.jpprof) &&
        [[ $(fib_calls "${it_profiles[@]}") == 59 ]] &&
        "$jp" report "${it_profiles[@]}" --format folded --metric calls | grep -q '^\[test\] org\.acme\.app\.TableIT#[^;]*;org.acme.app.Table.row(int):java.lang.String;org.acme.core.Fib.fib(int):long ' &&
        grep -q 'org.acme.app.TableIT' "$suites/build/reports/jp/aggregate/report.txt"; then
        pass "test suites: a JVM test suite with jp.enabled runs its project's jar and core's instrumented (Fib.fib 59 times under TableIT), under the configuration cache stored and reused; the aggregate report holds it"
    else
        fail "test suites: integrationTest suite with jp.enabled (Fib.fib calls: $(fib_calls "$suites"/app/build/jp/profiles/integrationTest/run-*/*.jpprof))"
        show "$work/suites-1.log" 30; show "$work/suites-2.log" 15
    fi

    junit5=$work/junit5
    copy_project "$root/integration-tests/gradle/junit5" "$junit5" && cp -r "$root/integration-tests/maven/params-demo/src" "$junit5/"
    if online=1 gradle_run junit5 "$junit5" jpProfileTest &&
        "$jp" report "$junit5"/build/jp/profiles/jpProfileTest/run-*/*.jpprof --format folded --metric calls --out "$work/junit5-calls.folded" &&
        "$jp" report "$junit5"/build/jp/profiles/jpProfileTest/run-*/*.jpprof --format folded --metric bytecodes --out "$work/junit5-bytecodes.folded"; then
        check_params_contexts "$work/junit5-calls.folded" "$work/junit5-bytecodes.folded"
    else
        fail "per-test: params: gradle jpProfileTest of a JUnit 5 project and its profile"; show "$work/junit5.log" 40
    fi
fi

exit "$failed"
