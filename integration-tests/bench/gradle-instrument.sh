#!/usr/bin/env bash
# Gradle instrument benchmark: how long the plugin's jpInstrument takes on a generated project of
# 10,000 classes (by default), cold, with nothing changed, and after a one-class edit; and how the
# cold run compares with JaCoCo's offline instrumentation (jacococli instrument) of the same
# classes. See README.md beside this file.
#
# usage: integration-tests/bench/gradle-instrument.sh [CLASSES]
#   BENCH_RUNS=N      runs of each measurement, median kept (default 3)
#   BENCH_SEED=N      the generator's seed (default 1)
#   JACOCO_VERSION=V  org.jacoco.cli version from Maven Central (default 0.8.15)
#
# Builds jp (cargo, release) and the plugin (mvn package, installed into a throwaway local
# repository under target/ as the gradle suite does), generates the project with
# generate-java-project.py, compiles it once with `gradle classes`, then times everything with the
# `gradle` on PATH (Debian's 4.4.1) in a daemon of its own, warmed up first and stopped at the end.
# Exits 0 when it measured, 1 when a measured run failed or gave a wrong count, 2 when it could not run.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
classes=${1:-10000}
runs=${BENCH_RUNS:-3}
seed=${BENCH_SEED:-1}
jacoco_version=${JACOCO_VERSION:-0.8.15}
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp
work=$target/bench/gradle-instrument
logs=$work/logs
repo=$work/m2
export GRADLE_USER_HOME=$work/gradle-home
die() { echo "gradle-instrument.sh: $*" >&2; exit 2; }
note() { echo "gradle-instrument.sh: $*" >&2; }
status=0
bad() { echo "gradle-instrument.sh: $*" >&2; status=1; }

command -v gradle >/dev/null || die "no gradle on PATH (apt-get install gradle)"
command -v mvn >/dev/null || die "no mvn on PATH"
command -v java >/dev/null || die "no java on PATH"
[[ -x /usr/bin/time ]] || die "no /usr/bin/time (apt-get install time)"
version=$(awk -F'[<>]' '/<version>/ { print $3; exit }' "$root/pom.xml")
[[ -n $version ]] || die "no version in $root/pom.xml"
mkdir -p "$logs" "$GRADLE_USER_HOME"
# The daemon is this script's own (its own GRADLE_USER_HOME): stop it on the way out.
trap 'gradle --stop >/dev/null 2>&1 || true' EXIT

# --- build and install ----------------------------------------------------------------------------
note "building jp (cargo build --release -p jp-cli) and the plugin (mvn package)"
(cd "$root" && cargo build --release --quiet -p jp-cli) || die "cargo build failed"
mvn -q -B -f "$root/pom.xml" package -DskipTests -pl gradle-plugin -am >"$logs/mvn.log" 2>&1 ||
    { tail -n 40 "$logs/mvn.log" >&2; die "mvn package failed"; }
install_jp "$repo" "$version" parent runtime engine gradle-plugin || die "cannot install into $repo"

# --- JaCoCo's command-line interface from Maven Central, checked against Central's SHA-1 ----------
jacoco_dir=$target/bench/cache/jacoco
jacoco=$jacoco_dir/org.jacoco.cli-$jacoco_version-nodeps.jar
if [[ ! -s $jacoco ]]; then
    url=https://repo1.maven.org/maven2/org/jacoco/org.jacoco.cli/$jacoco_version/org.jacoco.cli-$jacoco_version-nodeps.jar
    note "downloading $url"
    mkdir -p "$jacoco_dir"
    curl -fsSL -o "$jacoco.part" "$url" && sha1=$(curl -fsSL "$url.sha1") || die "cannot download $url"
    [[ $(sha1sum "$jacoco.part" | cut -c1-40) == "${sha1:0:40}" ]] || die "$url: SHA-1 differs from Central's ${sha1:0:40}"
    mv "$jacoco.part" "$jacoco"
fi

# --- the project ----------------------------------------------------------------------------------
# Named after the generator's contents too, so that a changed generator makes a new project.
project=$work/project-$classes-s$seed-$(sha256sum "$here/generate-java-project.py" | cut -c1-12)
if [[ ! -f $project/leaf.txt ]]; then
    note "generating $classes classes (seed $seed)"
    rm -rf "$project.tmp"
    python3 "$here/generate-java-project.py" "$classes" "$project.tmp" --seed "$seed" && mv "$project.tmp" "$project" ||
        die "could not generate the project"
fi
cat >"$project/build.gradle" <<EOF
// Written by integration-tests/bench/gradle-instrument.sh.
buildscript {
    repositories {
        mavenLocal()
    }
    dependencies {
        classpath 'org.jpprof:jp-gradle-plugin:$version'
    }
}

apply plugin: 'java'
apply plugin: 'org.jpprof.jp'

// Gradle 4.4.1 recompiles everything by default; later versions compile incrementally.
compileJava.options.incremental = true
EOF
echo "rootProject.name = 'bench'" >"$project/settings.gradle"
echo "org.gradle.jvmargs=-Xmx2g" >"$project/gradle.properties"
leaf=$project/$(cat "$project/leaf.txt")
compiled=$project/build/classes/java/main
instrumented=$project/build/jp/classes/main
cli_out=$work/cli-out
cli_cache=$work/cli-cache
jacoco_out=$work/jacoco-out

# --- timing helpers -------------------------------------------------------------------------------
# timed NAME COMMAND...: runs COMMAND with its output in $logs/NAME.log and sets `ms` to its wall
# time; a process's (not a shell function's) user and system CPU seconds go to $logs/NAME.cpu.
timed() {
    local name=$1 start end
    shift
    start=$EPOCHREALTIME
    if declare -F "$1" >/dev/null; then
        "$@" >"$logs/$name.log" 2>&1
    else
        /usr/bin/time -o "$logs/$name.cpu" -f '%U %S' "$@" >"$logs/$name.log" 2>&1
    fi
    local rc=$?
    end=$EPOCHREALTIME
    ms=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%d", (b - a) * 1000 }')
    return $rc
}
in_gradle() { # ARGS...: a build in the benchmark's daemon
    (cd "$project" && gradle --daemon --console=plain --offline -Dmaven.repo.local="$repo" \
        -Djp.engine.cacheDir="$work/engine-lib" "$@")
}
# The plugin's line: `jp: jpInstrument -> DIR: N rewritten, N reused, ... in N ms`.
summary() { grep -m1 -E '^jp: jpInstrument -> ' "$logs/$1.log" | sed 's/^jp: jpInstrument -> [^:]*: //'; }
engine_ms() { summary "$1" | sed -nE 's/.* in ([0-9]+) ms$/\1/p'; }
count_classes() { find "$1" -name '*.class' | wc -l; }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "-") }'; }
# The CPU seconds (user + system) of a CLI or JaCoCo run; a gradle client's would say nothing.
cpu() { awk '{ printf "%.1f/%.1f", $1, $2 }' "$logs/$1.cpu"; }
declare -A walls engines cpus details
record() { # ROW WALL_MS [ENGINE_MS] [USER/SYS]
    walls[$1]+=" $2"
    [[ -n ${3:-} ]] && engines[$1]+=" $3"
    [[ -n ${4:-} ]] && cpus[$1]=$4
    return 0
}

# --- warm up --------------------------------------------------------------------------------------
gradle_version=$(gradle --version 2>/dev/null | awk '/^Gradle / { print $2; exit }')
note "warming up a Gradle $gradle_version daemon and compiling (gradle classes)"
timed warm-help in_gradle help || { tail -n 30 "$logs/warm-help.log" >&2; die "gradle help failed"; }
timed compile in_gradle classes || { tail -n 30 "$logs/compile.log" >&2; die "gradle classes failed"; }
compile_ms=$ms
input_classes=$(count_classes "$compiled")
[[ $input_classes == "$classes" ]] || bad "the compiler wrote $input_classes classes, not $classes"
input_mb=$(du -sb "$compiled" | awk '{ printf "%.1f", $1 / 1e6 }')
rm -rf "$instrumented" "$project/build/jp/cache/main"
timed warm-instrument in_gradle jpInstrument || { tail -n 30 "$logs/warm-instrument.log" >&2; die "gradle jpInstrument failed"; }
timed warm-jacoco java -jar "$jacoco" instrument "$compiled" --dest "$jacoco_out.warm" --quiet ||
    { tail -n 30 "$logs/warm-jacoco.log" >&2; die "jacococli instrument failed"; }
rm -rf "$jacoco_out.warm"

# --- 1. cold, interleaved: jp instrument, jacococli instrument, gradle jpInstrument ---------------
# Earlier outputs are moved aside, not deleted, until all cold runs are done: on ext4, creating
# files right after many were deleted is slower, and a deletion before only some of the runs would
# favour the others.
retired=$work/retired
rm -rf "$retired"
retire() { # DIR...: moves each existing DIR out of the way, to be deleted after the cold runs
    local dir
    mkdir -p "$retired"
    for dir in "$@"; do
        if [[ -e $dir ]]; then mv "$dir" "$(mktemp -d "$retired/XXXXXX")/"; fi
    done
}
note "cold runs ($runs of each, interleaved)"
for ((run = 1; run <= runs; run++)); do
    # Without a cache the engine writes only the output: what the cache's own writes cost.
    retire "$cli_out"
    timed "cli-nocache-$run" "$jp" instrument --quiet --out "$cli_out" "$compiled" || bad "jp instrument failed: $logs/cli-nocache-$run.log"
    record cli-nocache "$ms" "" "$(cpu "cli-nocache-$run")"
    details[cli-nocache]=$(sed -n 's/^instrument: //p' "$logs/cli-nocache-$run.log")

    retire "$cli_out" "$cli_cache"
    timed "cli-cold-$run" "$jp" instrument --quiet --cache "$cli_cache" --out "$cli_out" "$compiled" || bad "jp instrument failed: $logs/cli-cold-$run.log"
    record cli-cold "$ms" "" "$(cpu "cli-cold-$run")"
    details[cli-cold]=$(sed -n 's/^instrument: //p' "$logs/cli-cold-$run.log")
    n=$(count_classes "$cli_out")
    [[ $n == "$input_classes" ]] || bad "jp instrument wrote $n classes, not $input_classes"

    retire "$jacoco_out"
    timed "jacoco-$run" java -jar "$jacoco" instrument "$compiled" --dest "$jacoco_out" || bad "jacococli failed: $logs/jacoco-$run.log"
    record jacoco "$ms" "" "$(cpu "jacoco-$run")"
    details[jacoco]=$(grep -m1 -i 'instrumented' "$logs/jacoco-$run.log")
    n=$(count_classes "$jacoco_out")
    [[ $n == "$input_classes" ]] || bad "jacococli wrote $n classes, not $input_classes"

    retire "$instrumented" "$project/build/jp/cache/main"
    timed "gradle-cold-$run" in_gradle jpInstrument || bad "gradle jpInstrument failed: $logs/gradle-cold-$run.log"
    record gradle-cold "$ms" "$(engine_ms "gradle-cold-$run")"
    details[gradle-cold]=$(summary "gradle-cold-$run")
    n=$(count_classes "$instrumented")
    [[ $n == "$input_classes" ]] || bad "jpInstrument wrote $n classes, not $input_classes"
done
rm -rf "$retired"

# --- 2. nothing changed ---------------------------------------------------------------------------
note "no-op runs"
for ((run = 1; run <= runs; run++)); do
    timed "gradle-uptodate-$run" in_gradle jpInstrument || bad "gradle jpInstrument failed: $logs/gradle-uptodate-$run.log"
    record gradle-uptodate "$ms"
    grep -q '^:jpInstrument UP-TO-DATE' "$logs/gradle-uptodate-$run.log" || bad "jpInstrument was not UP-TO-DATE: $logs/gradle-uptodate-$run.log"
    details[gradle-uptodate]="task UP-TO-DATE, engine not called"

    # --rerun-tasks makes Gradle run the engine; -x keeps it from recompiling the project.
    timed "gradle-rerun-$run" in_gradle jpInstrument --rerun-tasks -x compileJava -x processResources -x classes ||
        bad "gradle jpInstrument --rerun-tasks failed: $logs/gradle-rerun-$run.log"
    record gradle-rerun "$ms" "$(engine_ms "gradle-rerun-$run")"
    details[gradle-rerun]=$(summary "gradle-rerun-$run")
    [[ ${details[gradle-rerun]} == "0 rewritten, $input_classes reused,"* ]] || bad "no-op rerun: ${details[gradle-rerun]}"
    grep -q '^:compileJava' "$logs/gradle-rerun-$run.log" && bad "no-op rerun ran compileJava: $logs/gradle-rerun-$run.log"

    timed "cli-noop-$run" "$jp" instrument --quiet --cache "$cli_cache" --out "$cli_out" "$compiled" || bad "jp instrument failed: $logs/cli-noop-$run.log"
    record cli-noop "$ms" "" "$(cpu "cli-noop-$run")"
    details[cli-noop]=$(sed -n 's/^instrument: //p' "$logs/cli-noop-$run.log")
done

# --- 3. one method body of a leaf class edited ----------------------------------------------------
note "one-class edits (${leaf#"$project"/})"
for ((run = 1; run <= runs; run++)); do
    current=$(sed -nE 's|.*/\*edit\*/([0-9]+).*|\1|p' "$leaf")
    [[ -n $current ]] || die "$leaf: no /*edit*/ point"
    sed -i -E "s|/\*edit\*/[0-9]+|/*edit*/$((current + 1))|" "$leaf"

    timed "edit-compile-$run" in_gradle classes || bad "gradle classes failed: $logs/edit-compile-$run.log"
    record edit-compile "$ms"
    details[edit-compile]="incremental javac of the edited class"

    timed "gradle-edit-$run" in_gradle jpInstrument || bad "gradle jpInstrument failed: $logs/gradle-edit-$run.log"
    record gradle-edit "$ms" "$(engine_ms "gradle-edit-$run")"
    details[gradle-edit]=$(summary "gradle-edit-$run")
    rewritten=$(sed -nE 's/^([0-9]+) rewritten.*/\1/p' <<<"${details[gradle-edit]}")
    [[ $rewritten == 1 ]] || bad "after a one-class edit jpInstrument rewrote ${rewritten:-?} classes: ${details[gradle-edit]}"

    timed "cli-edit-$run" "$jp" instrument --quiet --cache "$cli_cache" --out "$cli_out" "$compiled" || bad "jp instrument failed: $logs/cli-edit-$run.log"
    record cli-edit "$ms" "" "$(cpu "cli-edit-$run")"
    details[cli-edit]=$(sed -n 's/^instrument: //p' "$logs/cli-edit-$run.log")
    [[ ${details[cli-edit]} == "1 classes rewritten,"* ]] || bad "after a one-class edit jp instrument: ${details[cli-edit]}"
done

# --- the table ------------------------------------------------------------------------------------
echo
echo "project: $input_classes classes, $input_mb MB of class files, \`gradle classes\` $((compile_ms / 1000)) s (compiles only when the project is new)"
echo "gradle $gradle_version (--offline, warmed daemon), java $(java -version 2>&1 | awk -F'"' '/version/ { print $2; exit }'), jacoco $jacoco_version, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medians of $runs runs; wall = the whole command (gradle client and build, or process); engine = the plugin's 'in N ms';"
echo "user/sys s = CPU seconds of the process (the last run), for the CLI and JaCoCo"
echo
printf '%-36s %8s %9s %11s   %s\n' run "wall ms" "engine ms" "user/sys s" detail
row() { # ROW LABEL
    local wall engine
    wall=$(median ${walls[$1]:-})
    engine=$(median ${engines[$1]:-})
    printf '%-36s %8s %9s %11s   %s\n' "$2" "$wall" "$engine" "${cpus[$1]:--}" "${details[$1]:-}"
}
row cli-cold "cold: jp instrument --cache (CLI)"
row cli-nocache "cold: jp instrument, no cache (CLI)"
row gradle-cold "cold: gradle jpInstrument"
row jacoco "cold: jacococli instrument"
row gradle-uptodate "no-op: gradle jpInstrument"
row gradle-rerun "no-op: jpInstrument --rerun-tasks"
row cli-noop "no-op: jp instrument (CLI)"
row edit-compile "edit: gradle classes"
row gradle-edit "edit: gradle jpInstrument"
row cli-edit "edit: jp instrument (CLI)"
echo
jacoco_ms=$(median ${walls[jacoco]})
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }
echo "ratio jacoco / jp instrument --cache (CLI wall):   $(ratio "$jacoco_ms" "$(median ${walls[cli-cold]})")"
echo "ratio jacoco / jp instrument, no cache (CLI wall): $(ratio "$jacoco_ms" "$(median ${walls[cli-nocache]})")"
cpu_sum() { awk -F/ '{ print $1 + $2 }' <<<"${cpus[$1]:-0/0}"; }
echo "ratio jacoco / jp instrument, no cache (CPU):      $(ratio "$(cpu_sum jacoco)" "$(cpu_sum cli-nocache)") (user+sys seconds, last run)"
echo "ratio jacoco / gradle jpInstrument (wall):         $(ratio "$jacoco_ms" "$(median ${walls[gradle-cold]})")"
echo "ratio jacoco / gradle jpInstrument (engine time):  $(ratio "$jacoco_ms" "$(median ${engines[gradle-cold]})")"
exit "$status"
