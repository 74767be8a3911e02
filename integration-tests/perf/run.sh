#!/usr/bin/env bash
# JP's overhead benchmark: how much slower real CPU-bound workloads run when instrumented, next to
# other ways of profiling them. README.md beside this script explains the output.
#
#   bash integration-tests/perf/run.sh [--quick] [h2|lucene|ecj]...
#
# Workloads (src/perf/, their jars fetched from Maven Central through pom.xml): H2 in-memory SQL,
# Lucene indexing and searching generated text, and the Eclipse compiler compiling commons-lang3's
# sources. Each driver runs one warm-up round and then its measured rounds in one JVM, checks that
# every round gives the same checksum, and prints it.
#
# Configurations, run interleaved (baseline, variant, ..., alternative, ..., then again):
#   baseline      the uninstrumented workload
#   JP variants   PERF_VARIANTS, space-separated NAME=FLAGS, the `jp instrument` flags of each
#                 variant joined by commas (default "default=--bba,default precise=--bba,precise";
#                 a variant whose flags start with jp-stress is rewritten by that test-only program
#                 instead, e.g. "stress=jp-stress" or "padded=jp-stress,--pad,300"). The library
#                 jars and the drivers are instrumented once per variant; the runtime jar is added to
#                 the class path.
#   alternatives  PERF_ALTERNATIVES, space-separated, from: jfr (-XX:StartFlightRecording, default
#                 settings), async-profiler (cpu sampling, its Maven Central jar's native agent),
#                 jvmti (a JVMTI MethodEntry/MethodExit tracer, tracer/jvmti_tracer.c, built with
#                 gcc; so slow that it runs once per workload, with a time limit). Default: all
#                 three; those that cannot run here are skipped with a note.
#
# Environment:
#   PERF_RUNS=N              interleaved runs of each configuration (default 3); the median is kept
#   PERF_ITERATIONS=N        measured rounds per JVM (default: each workload's own)
#   PERF_VARIANTS, PERF_ALTERNATIVES   as above ("" for none)
#   PERF_TRACER_TIMEOUT=S    time limit of a jvmti run (default 120 s, 30 s with --quick)
#   PERF_JAVA_OPTS="..."     more JVM options for every run (e.g. -XX:ActiveProcessorCount=1)
#   PERF_CPUS=LIST           run every JVM under `taskset -c LIST`
#   PERF_KEEP=1              keep the work directory (instrumented jars, logs, profiles)
#   JP_CACHE_DIR             where the fetched jars go (default ~/.cache/jp; this uses .../perf/)
# --quick: one run, one measured round, small inputs: a smoke test of everything.
#
# Exit status: 0, also when the ratios are bad; 1 when a run failed or a checksum differed from the
# baseline's; 2 when something could not be built or fetched. Timing never fails the benchmark.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$root/integration-tests/perf
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jdk=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
java=$jdk/bin/java
[[ -x $java ]] || java=$(command -v java)
javac=$jdk/bin/javac
[[ -x $javac ]] || javac=$(command -v javac)

runs=${PERF_RUNS:-3}
iterations=${PERF_ITERATIONS:-}
variants=${PERF_VARIANTS-"default=--bba,default precise=--bba,precise"}
alternatives=${PERF_ALTERNATIVES-"jfr async-profiler jvmti"}
tracer_timeout=${PERF_TRACER_TIMEOUT:-}
size=full
workloads=()
for arg in "$@"; do
    case $arg in
    --quick) runs=1 iterations=${PERF_ITERATIONS:-1} size=small tracer_timeout=${tracer_timeout:-30} ;;
    h2 | lucene | ecj) workloads+=("$arg") ;;
    *) echo "usage: $0 [--quick] [h2|lucene|ecj]..." >&2; exit 2 ;;
    esac
done
((${#workloads[@]} > 0)) || workloads=(h2 lucene ecj)
tracer_timeout=${tracer_timeout:-120}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "perf: PERF_RUNS must be a positive number" >&2; exit 2; }
[[ -z $iterations || $iterations =~ ^[0-9]+$ ]] || { echo "perf: PERF_ITERATIONS must be a number" >&2; exit 2; }

die() { echo "perf: $*" >&2; exit 2; }
note() { echo "perf: $*"; }
work=$(mktemp -d "${TMPDIR:-/tmp}/jp-perf.XXXXXX")
failed=0
cleanup() {
    if [[ -n ${PERF_KEEP:-} || $failed != 0 ]]; then
        echo "perf: work directory kept: $work"
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
mkdir -p "$work/logs"

# --- Build: jp, the runtime jar, the workloads' jars, the drivers. ---------------------------------
(cd "$root" && cargo build --release --quiet -p jp-cli -p jp-stress) || die "cargo build failed"
# Copies, so that a build running meanwhile elsewhere cannot change them under the benchmark.
cp "$target/release/jp" "$target/release/jp-stress" "$work/" || die "no jp or jp-stress binary in $target/release"
jp=$work/jp
jp_stress=$work/jp-stress
mvn -q -f "$root/pom.xml" -pl java-runtime -am package -Dmaven.test.skip=true >"$work/logs/runtime-build.log" 2>&1 ||
    { tail -n 30 "$work/logs/runtime-build.log"; die "the runtime jar did not build"; }
runtime_jar=
for f in "$root"/java-runtime/target/jp-runtime-*.jar; do
    [[ -f $f && $f != *-sources.jar && $f != *-javadoc.jar ]] && runtime_jar=$f
done
[[ -n $runtime_jar ]] || die "no runtime jar in java-runtime/target"
cp "$runtime_jar" "$work/jp-runtime.jar"
runtime=$work/jp-runtime.jar

# The fetched files live under a directory named by pom.xml's hash: editing the pom fetches anew,
# and a benchmark running meanwhile keeps its own.
cache=${JP_CACHE_DIR:-$HOME/.cache/jp}/perf/$(sha256sum "$here/pom.xml" | cut -c1-12)
if [[ ! -f $cache/.complete ]]; then
    note "fetching the workloads into $cache"
    fetch=$cache.tmp.$$
    rm -rf "$fetch"
    copy() { # GROUP-FILTER DIR
        mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies "$1" -DoutputDirectory="$fetch/$2" \
            >>"$work/logs/fetch.log" 2>&1
    }
    if ! copy -DexcludeGroupIds=org.apache.commons,tools.profiler jars || ! copy -DincludeGroupIds=org.apache.commons inputs ||
        ! copy -DincludeGroupIds=tools.profiler tools; then
        tail -n 30 "$work/logs/fetch.log"
        rm -rf "$fetch"
        die "could not fetch the workloads"
    fi
    mkdir -p "$fetch/inputs/lang3-sources"
    (cd "$fetch/inputs/lang3-sources" && unzip -q "$fetch"/inputs/commons-lang3-*-sources.jar -x 'META-INF/*') ||
        { rm -rf "$fetch"; die "could not unpack the commons-lang3 sources"; }
    touch "$fetch/.complete"
    mkdir -p "$(dirname "$cache")"
    mv -T "$fetch" "$cache" 2>/dev/null || rm -rf "$fetch" # another benchmark got there first
    [[ -f $cache/.complete ]] || die "could not fetch the workloads into $cache"
fi
lib_jars=("$cache"/jars/*.jar)
libs=$(printf '%s\n' "${lib_jars[@]}" | paste -sd:)
lang3_jar=
for f in "$cache"/inputs/commons-lang3-*.jar; do [[ $f != *-sources.jar ]] && lang3_jar=$f; done
mkdir -p "$work/drivers"
"$javac" --release 17 -nowarn -cp "$libs" -d "$work/drivers" "$here"/src/perf/*.java || die "the drivers do not compile"

# --- JP variants: the library jars and the drivers, instrumented once per variant. ------------------
reserved=" baseline jfr async-profiler jvmti "
names=()
declare -A flags_of=() profiled=()
for spec in $variants; do
    name=${spec%%=*}
    [[ $spec == *=* && $name =~ ^[A-Za-z0-9_.-]+$ ]] || die "bad variant '$spec' in PERF_VARIANTS (NAME=FLAG,FLAG,...)"
    [[ $reserved != *" $name "* && -z ${flags_of[$name]+x} ]] || die "variant name '$name' is taken"
    flags=${spec#*=}
    flags=${flags//,/ }
    flags_of[$name]=$flags
    names+=("$name")
    command=("$jp" instrument) profiled[$name]=1
    # The stress scheme has no runtime: its runs write no profile.
    [[ $flags == jp-stress* ]] && command=("$jp_stress") flags=${flags#jp-stress} profiled[$name]=0
    # shellcheck disable=SC2086 # the flags are a word list
    "${command[@]}" "${lib_jars[@]}" "$work/drivers" --out "$work/$name" $flags \
        >"$work/logs/instrument-$name.log" 2>&1 ||
        { cat "$work/logs/instrument-$name.log"; die "jp instrument failed for variant $name ($flags)"; }
done

# --- Alternatives: keep those that can run here. ------------------------------------------------------
alts=()
async_lib='' async_event=''
tracer_lib=
for alt in $alternatives; do
    case $alt in
    jfr) alts+=(jfr) ;;
    async-profiler)
        case $(uname -m) in x86_64) arch=linux-x64 ;; aarch64) arch=linux-arm64 ;; *) arch= ;; esac
        if [[ -n $arch ]] && (cd "$work" && unzip -q -o "$cache"/tools/async-profiler-*.jar "$arch/libasyncProfiler.so"); then
            async_lib=$work/$arch/libasyncProfiler.so
            # cpu uses perf_events; itimer is the fallback where the kernel refuses them.
            for event in cpu itimer; do
                if "$java" "-agentpath:$async_lib=start,event=$event,file=$work/logs/async-check.txt" -version \
                    >"$work/logs/async-check-$event.log" 2>&1 && ! grep -qi error "$work/logs/async-check-$event.log"; then
                    async_event=$event
                    break
                fi
            done
        fi
        if [[ -n $async_event ]]; then alts+=(async-profiler); else note "async-profiler cannot run here: skipped"; fi
        ;;
    jvmti)
        if [[ -f $jdk/include/jvmti.h ]] && command -v "${CC:-gcc}" >/dev/null &&
            "${CC:-gcc}" -O2 -std=gnu11 -shared -fPIC -I"$jdk/include" -I"$jdk/include/linux" \
                -o "$work/libjvmti_tracer.so" "$here/tracer/jvmti_tracer.c" >"$work/logs/tracer-build.log" 2>&1; then
            tracer_lib=$work/libjvmti_tracer.so
            alts+=(jvmti)
        else
            note "the JVMTI tracer cannot be built here (needs gcc and \$JAVA_HOME/include/jvmti.h): skipped"
        fi
        ;;
    *) die "unknown alternative '$alt' in PERF_ALTERNATIVES (jfr, async-profiler, jvmti)" ;;
    esac
done

main_of() {
    case $1 in
    h2) echo perf.H2Workload ;;
    lucene) echo perf.LuceneWorkload ;;
    ecj) echo perf.EcjWorkload ;;
    esac
}

# run WORKLOAD CONFIG N: runs one JVM. Sets r_ok (0/1), r_timeout (0/1), r_sum (checksum),
# r_wall (ms, the whole JVM) and r_steady (ms, the measured rounds).
run() {
    local workload=$1 config=$2 n=$3 cp=$work/drivers:$libs options=() limit=1800 log
    log=$work/logs/$workload-$config-$n
    case $config in
    baseline) ;;
    jfr) options=("-XX:StartFlightRecording=filename=$work/$workload-$n.jfr,settings=default") ;;
    async-profiler) options=("-agentpath:$async_lib=start,event=$async_event,file=$work/$workload-$n.collapsed") ;;
    jvmti) options=("-agentpath:$tracer_lib") limit=$tracer_timeout ;;
    *)
        cp=$work/$config$(printf ':%s' "$work/$config"/*.jar):$runtime
        options=("-Djp.output=$work/$config/$workload-$n.jpprof")
        ;;
    esac
    local command=(timeout "$limit" "$java" -Xms1g -Xmx1g)
    [[ -n ${PERF_CPUS:-} ]] && command=(taskset -c "$PERF_CPUS" "${command[@]}")
    # shellcheck disable=SC2206 # PERF_JAVA_OPTS is a word list
    command+=(${PERF_JAVA_OPTS:-} "${options[@]}" -Dperf.size="$size" -Dperf.sources="$cache/inputs/lang3-sources"
        -Dperf.classpath="$lang3_jar" -cp "$cp" "$(main_of "$workload")" $iterations)
    local start end status
    start=$(date +%s%N)
    "${command[@]}" >"$log.out" 2>"$log.err"
    status=$?
    end=$(date +%s%N)
    r_wall=$(((end - start) / 1000000))
    r_timeout=0 r_ok=0 r_sum='' r_steady=''
    [[ $status == 124 ]] && r_timeout=1
    read -r r_sum r_steady < <(sed -n 's/^[a-z0-9]* checksum=\([^ ]*\) .* time_ms=\([0-9]*\)$/\1 \2/p' "$log.out")
    [[ $status == 0 && -n ${r_steady:-} ]] && r_ok=1
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
ratio() { awk -v t="$1" -v b="$2" 'BEGIN { if (b > 0 && t > 0) printf "%.2f", t / b; else print "n/a" }'; }

configs=(baseline "${names[@]}" "${alts[@]}")
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
note "$("$java" -version 2>&1 | head -n 1) ($java)"
note "$(nproc) cores (nproc), ${cpu:-unknown cpu}, $(uname -sm), load average $(cut -d' ' -f1-3 /proc/loadavg)"
rounds_note=${iterations:-"the workload's default"}
note "$runs interleaved run(s) per configuration; inputs: $size; measured rounds: $rounds_note"
for name in "${names[@]}"; do
    note "variant $name: jp instrument ${flags_of[$name]}: $(tail -n 1 "$work/logs/instrument-$name.log")"
    grep '^warning' "$work/logs/instrument-$name.log" | head -n 3 | sed 's/^/perf:   /'
done
[[ -n $async_event ]] && note "async-profiler: event=$async_event, default interval"
[[ -n $tracer_lib ]] && note "jvmti: one run per workload, at most ${tracer_timeout}s"

declare -A wall=() steady=() timedout=()
for workload in "${workloads[@]}"; do
    baseline_sum=
    echo "perf: $workload ..."
    for ((r = 0; r < runs; r++)); do
        for c in "${configs[@]}"; do
            # The tracer is far too slow to repeat: one run, in the last round.
            [[ $c == jvmti ]] && ((r != runs - 1)) && continue
            run "$workload" "$c" "$r"
            if [[ $r_ok != 1 ]]; then
                if [[ $c == jvmti && $r_timeout == 1 ]]; then
                    timedout[$workload.$c]=1
                    wall[$workload.$c]+="$r_wall "
                    continue
                fi
                echo "perf: $workload $c: the run failed$( ((r_timeout)) && echo " (timed out)"); its last lines:" >&2
                tail -n 8 "$work/logs/$workload-$c-$r.err" >&2
                failed=1
                continue
            fi
            [[ $c == baseline && -z $baseline_sum ]] && baseline_sum=$r_sum
            if [[ $r_sum != "$baseline_sum" ]]; then
                echo "perf: $workload $c: checksum $r_sum differs from the baseline's ${baseline_sum:-(none)}" >&2
                failed=1
                continue
            fi
            if [[ -n ${profiled[$c]:-} && ${profiled[$c]} == 1 && ! -s $work/$c/$workload-$r.jpprof ]]; then
                echo "perf: $workload $c: no profile written (-Djp.output)" >&2
                failed=1
            fi
            wall[$workload.$c]+="$r_wall "
            steady[$workload.$c]+="$r_steady "
        done
    done
done

# --- Tables. -----------------------------------------------------------------------------------------
# table KIND TITLE: KIND is wall or steady.
table() {
    local kind=$1 title=$2 workload c base t q lower
    local -A logsum=() count=() bounded=()
    local -n times=$kind
    echo
    echo "$title"
    printf '%-8s %10s %7s' workload "baseline s" noise
    for c in "${configs[@]:1}"; do printf ' %14s' "$c"; done
    echo
    for workload in "${workloads[@]}"; do
        base=$(tr ' ' '\n' <<<"${times[$workload.baseline]:-}" | grep . | median)
        q=$(tr ' ' '\n' <<<"${times[$workload.baseline]:-}" | grep . |
            awk -v m="${base:-0}" 'NR == 1 { lo = hi = $1 } { if ($1 < lo) lo = $1; if ($1 > hi) hi = $1 }
                END { if (NR < 2 || m <= 0) print "-"; else printf "%.0f%%", 100 * (hi - lo) / m }')
        printf '%-8s %10s %7s' "$workload" "$(awk -v b="${base:-0}" 'BEGIN { if (b > 0) printf "%.2f", b / 1000; else print "n/a" }')" "$q"
        for c in "${configs[@]:1}"; do
            t=$(tr ' ' '\n' <<<"${times[$workload.$c]:-}" | grep . | median)
            lower=
            [[ $kind == wall && -n ${timedout[$workload.$c]:-} ]] && lower=">" bounded[$c]=1
            if [[ $kind == steady && -n ${timedout[$workload.$c]:-} ]]; then
                printf ' %14s' "(timed out)"
                continue
            fi
            q=$(ratio "${t:-0}" "${base:-0}")
            printf ' %14s' "$lower${q}x"
            [[ $q == n/a ]] && continue
            logsum[$c]=$(awk -v s="${logsum[$c]:-0}" -v r="$q" 'BEGIN { print s + log(r) }')
            count[$c]=$((${count[$c]:-0} + 1))
        done
        echo
    done
    printf '%-8s %10s %7s' geomean "" ""
    for c in "${configs[@]:1}"; do
        if [[ ${count[$c]:-0} != "${#workloads[@]}" ]]; then
            printf ' %14s' n/a
        else
            printf ' %14s' "${bounded[$c]:+>}$(awk -v s="${logsum[$c]}" -v n="${count[$c]}" 'BEGIN { printf "%.2f", exp(s / n) }')x"
        fi
    done
    echo
}
table wall "Whole JVM wall time (start-up, warm-up round, measured rounds), median of $runs: slowdown against the baseline"
table steady "Measured rounds only (after the warm-up round, timed inside the JVM), median of $runs"
echo
if ((failed)); then
    echo "perf: FAILED: a run failed or computed a different checksum (logs above)"
    exit 1
fi
echo "perf: all runs computed the baseline's checksums"
