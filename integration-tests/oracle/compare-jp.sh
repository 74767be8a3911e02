#!/usr/bin/env bash
# JP against the counting oracle, on every program of integration-tests/programs:
#   1. builds jp, the runtime jar and the agent, and compiles the programs (javac --release 17;
#      java25/ with --release 25 and run under Temurin 25, when installed);
#   2. runs each program uninstrumented under the oracle, then instrumented by `jp instrument`
#      with --bba precise and with --bba default, with the runtime and its default agent;
#   3. requires: the same stdout and exit status in all three runs; with precise, JP's profile
#      (`jp report --format folded`) equal to the oracle's context for context, in calls and in
#      bytecodes; with default, the same calls, bytecodes never lower than the oracle's, and equal
#      for programs that neither throw nor catch; and the paper numbers of Fig4 and Fig5 in JP's
#      profile.
# Contexts whose value is 0 are left out of both sides (the oracle lists them, jp report does
# not). Prints one PASS/FAIL line per check, ends with `jp-oracle: N passed, M failed`, exits 1
# on any failure. Work files go to ${ORACLE_WORK:-target/oracle/compare} under the repository.
#   bash integration-tests/oracle/compare-jp.sh [Program ...]    (default: every program)
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
programs_dir=$root/integration-tests/programs
work=${ORACLE_WORK:-$root/target/oracle/compare}
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp
suite=jp-oracle
# shellcheck source=lib.sh
source "$here/lib.sh"
# shellcheck source=../lib/jdks.sh
source "$root/integration-tests/lib/jdks.sh"

rm -rf "$work"
mkdir -p "$work/classes" "$work/oracle" "$work/precise" "$work/default"
lib=$(bash "$here/build.sh") || {
    fail "build: the agent did not compile"
    finish
}
export ORACLE_LIB=$lib
if ! (cd "$root" && cargo build --release --quiet -p jp-cli) >"$work/build.log" 2>&1; then
    cat "$work/build.log"
    fail "build: cargo build failed"
    finish
fi
if ! mvn -q -f "$root/pom.xml" -pl java-runtime -am package -DskipTests >"$work/mvn.log" 2>&1; then
    tail -n 30 "$work/mvn.log"
    fail "build: the runtime jar did not build"
    finish
fi
runtime=$(ls "$root"/java-runtime/target/jp-runtime-*.jar 2>/dev/null | grep -v -e sources -e javadoc | head -n 1)
if ! "$javac" --release 17 -encoding UTF-8 -d "$work/classes" "$programs_dir"/demo/*.java 2>"$work/javac.log"; then
    cat "$work/javac.log"
    fail "compile: javac failed on integration-tests/programs"
    finish
fi
# Programs in the Java 25 language (integration-tests/programs/java25, package demo25) run under
# Temurin 25 when it is installed.
java25=
if temurin=$(find_temurin25); then
    if "$temurin/bin/javac" --release 25 -encoding UTF-8 -d "$work/classes" "$programs_dir"/java25/*.java 2>"$work/javac25.log"; then
        java25=$temurin/bin/java
    else
        cat "$work/javac25.log"
        fail "compile: javac --release 25 failed on integration-tests/programs/java25"
    fi
else
    echo "SKIP java25 programs: no Temurin 25 (set TEMURIN25_HOME)"
fi
for bba in precise default; do
    if ! "$jp" instrument "$work/classes" --out "$work/instrumented-$bba" --bba "$bba" >"$work/instrument-$bba.log" 2>&1; then
        cat "$work/instrument-$bba.log"
        fail "instrument: jp instrument --bba $bba failed"
        finish
    fi
    if grep -q '^warning' "$work/instrument-$bba.log"; then
        grep '^warning' "$work/instrument-$bba.log" | head -n 5 | sed 's/^/    /'
        fail "instrument: jp instrument --bba $bba kept methods unrewritten"
    fi
done
pass "build: jp, runtime, agent and programs; instrumented with both analyses"

programs=("$@")
if ((${#programs[@]} == 0)); then
    mapfile -t programs < <(all_programs)
    [[ -n $java25 ]] && for f in "$programs_dir"/java25/*.java; do f=${f##*/}; programs+=("${f%.java}"); done
fi

for p in "${programs[@]}"; do
    problems=()
    status=0
    package=demo program_source=$programs_dir/demo/$p.java java=$JAVA
    if [[ ! -f $program_source && -f $programs_dir/java25/$p.java ]]; then
        package=demo25 program_source=$programs_dir/java25/$p.java java=${java25:-$JAVA}
    fi
    JAVA=$java bash "$here/run-oracle.sh" "$package.$p" "$work/classes" "$work/oracle/$p" >"$work/oracle/$p.stdout" 2>"$work/oracle/$p.stderr" || status=$?
    echo "exit $status" >>"$work/oracle/$p.stdout"
    ((status == 3)) && problems+=("the oracle reported warnings (see $work/oracle/$p.stderr)")
    for bba in precise default; do
        out=$work/$bba/$p
        status=0
        "$java" -cp "$work/instrumented-$bba:$runtime" -Djp.output="$out.jpprof" "$package.$p" >"$out.stdout" 2>"$out.stderr" || status=$?
        echo "exit $status" >>"$out.stdout"
        if ! cmp -s "$work/oracle/$p.stdout" "$out.stdout"; then
            problems+=("$bba: stdout or exit status differs from the uninstrumented run")
            diff "$work/oracle/$p.stdout" "$out.stdout" | head -n 6 | sed 's/^/    /'
        fi
        for metric in calls bytecodes; do
            if ! "$jp" report "$out.jpprof" --format folded --metric "$metric" --out "$out.$metric.folded" 2>"$out.report.log"; then
                problems+=("$bba: jp report failed: $(head -n 1 "$out.report.log")")
                continue 2
            fi
            # JP's signatures as the oracle's JVMS descriptors; contexts of 0 left out on both sides
            folded jvm-names "$out.$metric.folded" >"$out.$metric.jvm" && mv "$out.$metric.jvm" "$out.$metric.folded"
            folded nonzero "$out.$metric.folded" >"$out.$metric.sorted"
            folded nonzero "$work/oracle/$p.$metric.folded" >"$work/oracle/$p.$metric.sorted"
            exact=1
            [[ $bba == default && $metric == bytecodes ]] && grep -qE '\b(throw|catch)\b' "$program_source" && exact=0
            if ((exact)); then
                if ! cmp -s "$work/oracle/$p.$metric.sorted" "$out.$metric.sorted"; then
                    problems+=("$bba: $metric differ from the oracle's")
                    diff "$work/oracle/$p.$metric.sorted" "$out.$metric.sorted" | head -n 8 | sed 's/^/    /'
                fi
            else
                lower=$(folded lower-than "$out.$metric.sorted" "$work/oracle/$p.$metric.sorted")
                if [[ -n $lower ]]; then
                    problems+=("$bba: $metric lower than the oracle's")
                    head -n 5 <<<"$lower" | sed 's/^/    /'
                fi
            fi
        done
        [[ $bba == precise ]] && check_paper "$p" "$out" "paper (JP, precise)"
    done
    if ((${#problems[@]} == 0)); then
        pass "$p: JP equals the oracle ($(wc -l <"$work/precise/$p.calls.sorted") contexts)"
    else
        fail "$p: $(IFS=';'; echo "${problems[*]}")"
    fi
done
finish
