#!/usr/bin/env bash
# Self-check of the counting oracle:
#   1. builds the agent and compiles integration-tests/programs (javac --release 17);
#   2. runs the paper examples and asserts their numbers: JP's Fig. 4 (f = 1 call of 106
#      bytecodes, f.h = 10, f.g = 10, f.g.h = 55) and ProfBuilder's Fig. 5 (611 calls in all,
#      main.A.B.D = 200, main.A.C.D = 100);
#   3. runs every program twice and requires identical oracle output (both metrics) and stdout,
#      no oracle warning, and every `// expect: <context> calls=N bytecodes=M` line of its source.
# Prints one PASS/FAIL line per check and ends with `oracle: N passed, M failed`; exits 1 on any
# failure. Work files go to ${ORACLE_WORK:-target/oracle/selfcheck} under the repository.
#   bash integration-tests/oracle/selfcheck.sh [Program ...]    (default: every program)
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
programs_dir=$root/integration-tests/programs
work=${ORACLE_WORK:-$root/target/oracle/selfcheck}
suite=oracle
# shellcheck source=lib.sh
source "$here/lib.sh"

lib=$(bash "$here/build.sh") || {
    fail "build: the agent did not compile"
    finish
}
export ORACLE_LIB=$lib
rm -rf "$work"
mkdir -p "$work/classes" "$work/run1" "$work/run2"
if ! "$javac" --release 17 -encoding UTF-8 -d "$work/classes" "$programs_dir"/demo/*.java 2>"$work/javac.log"; then
    cat "$work/javac.log"
    fail "compile: javac failed on integration-tests/programs"
    finish
fi
pass "build: agent and programs"

programs=("$@")
((${#programs[@]} > 0)) || mapfile -t programs < <(all_programs)

# run <Program> <run-dir>: the oracle's output lands in <run-dir>/<Program>.{calls,bytecodes}.folded
run() {
    local p=$1 dir=$2
    bash "$here/run-oracle.sh" "demo.$p" "$work/classes" "$dir/$p" >"$dir/$p.stdout" 2>"$dir/$p.stderr"
}


for p in "${programs[@]}"; do
    start=$(date +%s%N)
    run "$p" "$work/run1"
    status1=$?
    run "$p" "$work/run2"
    status2=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    problems=()
    for s in "$status1" "$status2"; do
        if ((s == 3)); then
            problems+=("the oracle reported warnings (see $work/run1/$p.stderr)")
        elif ((s != 0)); then
            problems+=("exit status $s (see $work/run1/$p.stderr)")
        fi
    done
    for kind in calls.folded bytecodes.folded stdout; do
        if [[ ! -s $work/run1/$p.$kind && $kind != stdout ]]; then
            problems+=("no $kind written")
        elif ! cmp -s "$work/run1/$p.$kind" "$work/run2/$p.$kind"; then
            problems+=("$kind differs between two runs")
            diff "$work/run1/$p.$kind" "$work/run2/$p.$kind" | head -10 | sed 's/^/    /'
        fi
    done
    # `// expect: <context> calls=N bytecodes=M` lines of the program's source
    while IFS= read -r line; do
        spec=${line#*// expect: }
        ctx=${spec%% *}
        for kv in ${spec#* }; do
            metric=${kv%%=*}
            check_value "$p" "$work/run1/$p.$metric.folded" "$ctx" "${kv#*=}" ||
                problems+=("expectation not met: $metric of $ctx")
        done
    done < <(grep -h '// expect: ' "$programs_dir/demo/$p.java")
    if ((${#problems[@]} == 0)); then
        pass "$p: deterministic, $(wc -l <"$work/run1/$p.calls.folded") contexts (two runs, ${ms} ms)"
    else
        fail "$p: $(IFS=';'; echo "${problems[*]}")"
    fi

    check_paper "$p" "$work/run1/$p" paper
done
finish
