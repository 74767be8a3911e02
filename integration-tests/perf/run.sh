#!/usr/bin/env bash
# JP's overhead benchmark: how much slower real CPU-bound workloads run when instrumented.
#
#   bash integration-tests/perf/run.sh [--quick] [h2|lucene|ecj]...
#
# Workloads (src/perf/, jars from Maven Central through pom.xml): H2 in-memory SQL, Lucene indexing
# and searching generated text, and the Eclipse compiler compiling commons-lang3's sources. Each
# driver runs one warm-up round and then PERF_ITERATIONS measured rounds in one JVM, checks that
# every round gives the same checksum, and prints the measured time.
#
# Variants: the uninstrumented run (the baseline), then JP with each set of `jp instrument` flags
# in PERF_VARIANTS (NAME=FLAGS, commas between flags; default
# "default=--bba,default precise=--bba,precise"; the library jars and the
# drivers are instrumented, the runtime jar is added), then JFR with its default settings. Runs are
# interleaved (baseline, variant, variant, ..., then again) PERF_RUNS times (default 3); the
# median of each is kept. A run whose checksum differs from the baseline's fails the benchmark.
# Printed: per workload the baseline time and each variant's slowdown ratio, then the geometric
# mean per variant. Ratios of interleaved runs, not absolute times, are what to compare on a noisy
# machine. --quick: one run of one measured round, to smoke-test the script.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$root/integration-tests/perf
cache=${JP_CACHE_DIR:-$HOME/.cache/jp}/perf
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp
jdk=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
java=$jdk/bin/java
[[ -x $java ]] || java=java
javac=$jdk/bin/javac
[[ -x $javac ]] || javac=javac
runs=${PERF_RUNS:-3}
iterations=${PERF_ITERATIONS:-3}
variants=${PERF_VARIANTS:-"default=--bba,default precise=--bba,precise"}
workloads=()
for arg in "$@"; do
    case $arg in
    --quick) runs=1 iterations=1 ;;
    h2 | lucene | ecj) workloads+=("$arg") ;;
    *) echo "usage: $0 [--quick] [h2|lucene|ecj]..." >&2; exit 2 ;;
    esac
done
((${#workloads[@]} > 0)) || workloads=(h2 lucene ecj)

die() { echo "perf: $*" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/jp-perf.XXXXXX")
trap 'rm -rf "$work"' EXIT

(cd "$root" && cargo build --release --quiet -p jp-cli) || die "cargo build failed"
mvn -q -f "$root/pom.xml" -pl java-runtime -am package -DskipTests >"$work/mvn.log" 2>&1 ||
    { tail -n 30 "$work/mvn.log"; die "the runtime jar did not build"; }
runtime=$(ls "$root"/java-runtime/target/jp-runtime-*.jar | grep -v -e sources -e javadoc | head -n 1)

if [[ ! -f $cache/.complete ]]; then
    rm -rf "$cache"
    mvn -q -f "$here/pom.xml" dependency:copy-dependencies -DoutputDirectory="$cache/jars" || die "could not fetch the workloads"
    mkdir -p "$cache/lang3-sources"
    (cd "$cache/lang3-sources" && unzip -q "$cache"/jars/commons-lang3-*-sources.jar && rm -rf META-INF) ||
        die "could not unpack the commons-lang3 sources"
    touch "$cache/.complete"
fi
libs=$(ls "$cache"/jars/*.jar | grep -v -e '-sources\.jar$' | paste -sd:)
mkdir -p "$work/baseline/drivers"
"$javac" --release 17 -nowarn -cp "$libs" -d "$work/baseline/drivers" "$here"/src/perf/*.java || die "the drivers do not compile"

# Each variant: the library jars and the drivers, instrumented.
names=()
for spec in $variants; do
    name=${spec%%=*}
    flags=${spec#*=}
    names+=("$name")
    mkdir -p "$work/$name"
    # shellcheck disable=SC2086 # the flags are a word list
    "$jp" instrument $(ls "$cache"/jars/*.jar | grep -v -e '-sources\.jar$') "$work/baseline/drivers" \
        --out "$work/$name/out" ${flags//,/ } -q >"$work/$name/instrument.log" 2>&1 ||
        { cat "$work/$name/instrument.log"; die "jp instrument failed for variant $name"; }
done

main_of() {
    case $1 in
    h2) echo perf.H2Workload ;;
    lucene) echo perf.LuceneWorkload ;;
    ecj) echo perf.EcjWorkload ;;
    esac
}

# run WORKLOAD CONFIG: prints "checksum time_ms" of one JVM run.
run() {
    local workload=$1 config=$2 cp options=()
    case $config in
    baseline) cp="$work/baseline/drivers:$libs" ;;
    jfr)
        cp="$work/baseline/drivers:$libs"
        options=("-XX:StartFlightRecording=filename=$work/jfr-$workload.jfr,settings=default")
        ;;
    *)
        cp="$work/$config/out:$(ls "$work/$config"/out/*.jar | paste -sd:):$runtime"
        options=("-Djp.output=$work/$config/$workload.jpprof")
        ;;
    esac
    "$java" -Xms1g -Xmx1g "${options[@]}" -Dperf.sources="$cache/lang3-sources" -cp "$cp" "$(main_of "$workload")" \
        "$iterations" 2>"$work/$workload-$config.err" | sed -n 's/.* checksum=\([^ ]*\) .* time_ms=\([0-9]*\)$/\1 \2/p'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

configs=(baseline "${names[@]}" jfr)
echo "perf: $("$java" -version 2>&1 | head -n 1), $(nproc) cores, $runs runs of $iterations measured rounds"
printf '%-8s %12s' workload "baseline ms"
for c in "${configs[@]:1}"; do printf ' %10s' "$c"; done
echo
failed=0
declare -A product
for c in "${configs[@]:1}"; do product[$c]=0; done
for workload in "${workloads[@]}"; do
    declare -A times=()
    baseline_sum=
    for ((r = 0; r < runs; r++)); do
        for c in "${configs[@]}"; do
            read -r sum ms < <(run "$workload" "$c")
            if [[ -z ${ms:-} ]]; then
                echo "perf: $workload $c: the run failed:" >&2
                tail -n 5 "$work/$workload-$c.err" >&2
                failed=1
                continue
            fi
            [[ $c == baseline && -z $baseline_sum ]] && baseline_sum=$sum
            if [[ $sum != "$baseline_sum" ]]; then
                echo "perf: $workload $c: checksum $sum differs from the baseline's $baseline_sum" >&2
                failed=1
            fi
            times[$c]+="$ms "
        done
    done
    base=$(tr ' ' '\n' <<<"${times[baseline]:-}" | grep . | median)
    printf '%-8s %12s' "$workload" "$base"
    for c in "${configs[@]:1}"; do
        t=$(tr ' ' '\n' <<<"${times[$c]:-}" | grep . | median)
        ratio=$(awk -v t="$t" -v b="$base" 'BEGIN { if (b > 0 && t > 0) printf "%.2f", t / b; else print "n/a" }')
        printf ' %9sx' "$ratio"
        product[$c]=$(awk -v p="${product[$c]}" -v r="$ratio" 'BEGIN { print (r == "n/a") ? p : p + log(r) }')
    done
    echo
    unset times
done
printf '%-8s %12s' geomean ""
for c in "${configs[@]:1}"; do
    printf ' %9sx' "$(awk -v p="${product[$c]}" -v n="${#workloads[@]}" 'BEGIN { printf "%.2f", exp(p / n) }')"
done
echo
exit "$failed"
