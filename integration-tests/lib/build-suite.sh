# Shared by the suites that drive JP's build plugins in real builds (suites/gradle.sh and
# suites/maven-plugin.sh). Source it after setting `suite` (the suite's name) and `work` (its
# scratch directory), and with `jp` naming the CLI binary, `version` JP's version and `root` JP's
# repository. It sets `failed=0`.
# shellcheck shell=bash

failed=0
die() { echo "$suite.sh: $*" >&2; exit 2; }
pass() { echo "PASS $suite $*"; }
fail() { echo "FAIL $suite $*"; failed=1; }
skip() { echo "SKIP $suite $*"; }
# Shows the end of a log after a FAIL line.
show() { sed 's/^/    | /' "$1" | tail -n "${2:-25}"; }
# Whether a JVM crashed under these directories (HotSpot's hs_err_pid*.log).
no_crash() { [[ -z $(find "$@" -maxdepth 4 -name 'hs_err_pid*' 2>/dev/null) ]]; }
# A directory's files and their hashes, for comparisons.
# total_calls PROFILE...: the calls of all contexts of the profiles together (needs $jp).
total_calls() { "$jp" report "$@" --format folded --metric calls | awk '{ s += $NF } END { print s + 0 }'; }
digest() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
# complete_page FILE: whether FILE is a whole HTML page, from its doctype to its closing tag.
complete_page() { [[ -s $1 && $(head -c 15 "$1") == '<!DOCTYPE html>' && $(tail -c 8 "$1") == '</html>'* ]]; }
# first_changed_method BASE_DIR NEW_DIR: the first row of the methods that `jp diff` (text) ranks,
# for the profiles of two directories.
first_changed_method() {
    "$jp" diff "$1"/*.jpprof --against "$2"/*.jpprof | awk '/^== Methods/ { getline; getline; print; exit }'
}
# check_gate_diff TASK LOG NAMED PAGE BASE_DIR RUN_DIR: the failing check TASK (its output in LOG)
# names its diff report as NAMED; the report, PAGE, is a complete page naming Leaderboard.rank; and
# `jp diff` of the same two runs (the profiles the baseline kept, BASE_DIR, and the checked run,
# RUN_DIR) ranks Leaderboard.rank first.
check_gate_diff() {
    local task=$1 log=$2 named=$3 page=$4 first
    first=$(first_changed_method "$5" "$6")
    if grep -qF "where the growth is: $named" "$log" && complete_page "$page" && grep -q 'Leaderboard.rank' "$page" &&
        [[ $first == changed*org.example.leaderboard.Leaderboard.rank\(* ]]; then
        pass "gate: the failing $task names its diff report $named ($(wc -c <"$page") bytes, a complete page), and jp diff of the same runs ranks Leaderboard.rank first: $(tr -s ' ' <<<"$first")"
    else
        fail "gate: the failing $task names its diff report $named, a complete page, and jp diff of the same runs ranks Leaderboard.rank first (first: ${first:-none})"
        show "$log"
    fi
}
# per_test_totals PROFILE...: one line per test context (`[test] <id>`), its id and the bytecodes of
# its whole subtree, sorted (needs $jp).
per_test_totals() {
    "$jp" report "$@" --format folded --metric bytecodes |
        awk '/^\[test\] / { value = $NF; sub(/ [0-9]+$/, ""); split($0, frames, ";"); s[frames[1]] += value }
             END { for (t in s) print t " = " s[t] }' | LC_ALL=C sort
}

# surefire COMMAND DIR: reads the JUnit XML reports in DIR (integration-tests/lib/jptest/surefire.py
# lists the commands: results, ids, counts).
surefire() { PYTHONPATH=$root/integration-tests/lib python3 -m jptest.surefire "$@"; }

# check_per_test WHERE FOLDED-CALLS REPORTS: every test in Surefire's XML reports under REPORTS has
# its own top-level context in FOLDED-CALLS (`jp report --format folded --metric calls`), run once,
# and no method runs outside a test but static initializers. Surefire names a test `method` (JUnit
# 4) or `method(Types)` (JUnit 5), and an invocation `method(Types)[n]`, whose context is
# `[test] class#method(Types) > [n] <the rest of its display name>`.
check_per_test() {
    local where=$1 folded=$2 reports=$3 tests missing outside
    tests=$(surefire ids "$reports")
    missing=$(while read -r test; do
        if [[ $test =~ ^(.*\))\[([0-9]+)\]$ ]]; then
            grep -qE "^$(sed 's/[][().*^$+?{}|\\]/\\&/g' <<<"[test] ${BASH_REMATCH[1]} > [${BASH_REMATCH[2]}] ")[^;]* 1$" "$folded"
        else
            [[ $test == *')' ]] || test+='()'
            grep -qxF "[test] $test 1" "$folded"
        fi || echo "$test"
    done <<<"$tests")
    outside=$(grep -v '^\[test\] ' "$folded" | grep -v '^[^;]*<clinit>' | head -3)
    if [[ -n $tests && -z $missing && -z $outside ]]; then
        pass "per-test: $where: each of the $(wc -l <<<"$tests") tests is a top-level context, run once; nothing but static initializers outside"
    else
        fail "per-test: $where: tests without a context: ${missing:-none}; outside tests: ${outside:-nothing}"
    fi
}

# testng_version: the TestNG of the TestNG project (integration-tests/maven/testng-demo/pom.xml).
testng_version() {
    grep -A1 '<artifactId>testng</artifactId>' "$root/integration-tests/maven/testng-demo/pom.xml" |
        sed -n 's|.*<version>\(.*\)</version>.*|\1|p'
}

# check_testng WHERE FIRST-RUN SECOND-RUN: two test runs (directories of profiles) of the TestNG
# project (integration-tests/maven/testng-demo's sources). In the first, each test method is a
# top-level context, begun once per invocation, with its @BeforeMethod (a new Words) inside; the
# data provider's three rows have contexts of their own below their method's, told apart by their
# values; @BeforeClass
# counts under the class's context; nothing but static initializers runs outside tests. Both runs
# give identical per-test totals.
check_testng() {
    local where=$1 first=$2 second=$3 folded=$work/testng-calls.folded missing outside line setup
    local test='[test] org.example.words.WordsTest' split='org.example.words.Words.split(java.lang.String):java.util.List'
    if ! compgen -G "$first/*.jpprof" >/dev/null || ! "$jp" report "$first"/*.jpprof --format folded --metric calls --out "$folded"; then
        fail "per-test: $where: no readable profile in $first"
        return
    fi
    missing=$(
        for line in "$test#keepsEmptyWords() 1" "$test#splits(String, int) 3" \
            "$test;org.example.words.Words.loadSeparators():void 1" "$test#splits(String, int) > a, 1;$split 1" \
            "$test#splits(String, int) > a b, 2;$split 1" "$test#splits(String, int) > a b c d e f g h, 8;$split 1"; do
            grep -qxF "$line" "$folded" || echo "$line"
        done
        for setup in "#keepsEmptyWords() 1" "#splits(String, int) 3"; do
            grep -qE "^$(sed 's/[][().*^$]/\\&/g' <<<"$test${setup% *}");org\.example\.words\.Words\.<init>[^;]* ${setup##* }\$" "$folded" ||
                echo "$test${setup% *};Words.<init> ${setup##* }"
        done
    )
    outside=$(grep -v '^\[test\] ' "$folded" | grep -v '^[^;]*<clinit>' | head -3)
    if [[ -z $missing && -z $outside ]]; then
        pass "per-test: $where: each test method a top-level context, run once per invocation, its @BeforeMethod inside; 3 data-provider rows told apart below it; @BeforeClass under the class"
    else
        fail "per-test: $where: missing: ${missing:-none}; outside tests: ${outside:-nothing}"
        grep -F 'WordsTest' "$folded" | head -20
    fi
    per_test_totals "$first"/*.jpprof >"$work/testng-totals-1.txt"
    if compgen -G "$second/*.jpprof" >/dev/null && per_test_totals "$second"/*.jpprof >"$work/testng-totals-2.txt" &&
        (($(wc -l <"$work/testng-totals-1.txt") == 6)) && cmp -s "$work/testng-totals-1.txt" "$work/testng-totals-2.txt"; then
        pass "per-test: $where: two runs give identical per-test totals (6 test contexts)"
    else
        fail "per-test: $where: per-test totals of two runs"
        diff "$work/testng-totals-1.txt" "$work/testng-totals-2.txt" 2>&1 | head
    fi
}

# check_demo_profiles WHERE PROFILE...: the profiles of the demo's test run show its hot spot: the
# context with the most bytecodes of its own is Leaderboard.rank, and the insertion sort makes over
# half a million calls of Leaderboard.before under it. WHERE names the profiles' directory in
# messages.
check_demo_profiles() {
    local where=$1
    shift
    if [[ ! -f ${1:-} ]] ||
        ! "$jp" report "$@" --format folded --metric bytecodes --out "$work/bytecodes.folded" ||
        ! "$jp" report "$@" --format folded --metric calls --out "$work/calls.folded"; then
        fail "demo: no readable profile in $where"
        return
    fi
    local rank='org.example.leaderboard.Leaderboard.rank(java.util.List):java.util.List'
    local before='org.example.leaderboard.Leaderboard.before(org.example.leaderboard.Player,org.example.leaderboard.Player):boolean'
    local hottest compares
    hottest=$(awk '{ if ($NF > max) { max = $NF; line = $0 } } END { print line }' "$work/bytecodes.folded")
    compares=$(awk -v rb="$rank;$before" \
        '{ value = $NF; sub(/ [0-9]+$/, ""); if (substr($0, length($0) - length(rb) + 1) == rb) s += value } END { print s + 0 }' \
        "$work/calls.folded")
    if [[ $hottest == *"$rank "* ]] && ((compares > 500000)); then
        pass "demo: $# profile(s); hottest context Leaderboard.rank (${hottest##* } bytecodes), $compares calls of Leaderboard.before under it"
    else
        fail "demo: hottest context is not Leaderboard.rank: $hottest (Leaderboard.before calls: $compares)"
    fi
}

# check_ide_settings GOAL DIR NAME IDE-FILE PROFILES-DIR CLASSES-DIR ORIGINAL-CLASSES: what GOAL wrote
# (after its run, logged in $work/ide.log) for the project in DIR, whose instrumented classes are in
# CLASSES-DIR and compiler's in ORIGINAL-CLASSES: IDE-FILE names the class path and JVM options, and
# the class path runs the demo's application instrumented; and the run configurations in DIR/.run
# named NAME (`JP <project>`), IntelliJ IDEA's and Eclipse's, for the main class and for the tests,
# are well-formed and run the application the same way (check_ide_run_file).
check_ide_settings() {
    local goal=$1 dir=$2 name=$3 settings=$4 profiles=$5 classes=$6 original=$7
    if ! grep -q "^vm.options=-Djp.output=$profiles/ide/ide-%p.jpprof" "$settings" ||
        ! grep -q "^main.classpath=$classes:.*jp-runtime-$version.jar$" "$settings"; then
        fail "ide: $goal prints the class path and JVM options"; show "$work/ide.log"
        return
    fi
    local cp
    cp=$(sed -n 's/^main.classpath=//p' "$settings")
    (cd "$work" && java -Djp.output="$work/ide.jpprof" -cp "$cp" org.example.leaderboard.Main >"$work/ide-run.log" 2>&1)
    if [[ -s $work/ide.jpprof ]] && "$jp" report "$work/ide.jpprof" --format folded | grep -q 'Leaderboard.rank'; then
        pass "ide: $goal's class path runs the application instrumented"
    else
        fail "ide: $goal's class path runs the application instrumented"; show "$work/ide-run.log"
    fi
    check_ide_run_file "$goal" "$dir" "$dir/.run/$name Main.run.xml" "$profiles" "$classes" "$original"
    check_ide_run_file "$goal" "$dir" "$dir/.run/$name Main.launch" "$profiles" "$classes"
    local file listed
    for file in "$dir/.run/$name tests.run.xml" "$dir/.run/$name tests.launch"; do
        listed=$(java "$root/integration-tests/lib/IdeRunFile.java" "$file" "$dir" 2>&1 | sed -n 's/^cp //p')
        if grep -qxF "$classes" <<<"$listed" && grep -q "/jp-junit-$version.jar$" <<<"$listed"; then
            pass "ide: $goal wrote ${file#"$dir"/}, well-formed, with the instrumented classes and the test listeners"
        else
            fail "ide: $goal wrote ${file#"$dir"/}, well-formed, with the instrumented classes and the test listeners"
            show "$work/ide.log"; [[ -f $file ]] && show "$file"
        fi
    done
}

# check_ide_run_file GOAL DIR FILE PROFILES-DIR CLASSES-DIR [ORIGINAL-CLASSES]: the run configuration
# FILE (IntelliJ IDEA's .run.xml, whose class path entries go in front of the module's, here
# ORIGINAL-CLASSES; or Eclipse's .launch, whose class path is whole) parses, puts CLASSES-DIR first
# and names JP's runtime, and `java` with exactly its JVM options and class path runs its main class
# instrumented, writing a profile into PROFILES-DIR/ide as the IDE would.
check_ide_run_file() {
    local goal=$1 dir=$2 file=$3 profiles=$4 classes=$5 original=${6:-} kind value main='' cp=() vm=() runs
    local what="ide: $goal wrote ${file#"$dir"/}"
    if ! java "$root/integration-tests/lib/IdeRunFile.java" "$file" "$dir" >"$work/ide-file.txt" 2>&1; then
        fail "$what, well-formed"; show "$work/ide-file.txt"; show "$work/ide.log"
        return
    fi
    while read -r kind value; do
        case $kind in
            main) main=$value ;;
            cp) cp+=("$value") ;;
            vm) vm+=("$value") ;;
        esac
    done <"$work/ide-file.txt"
    [[ -n $original ]] && cp+=("$original")
    if [[ ${cp[0]:-} != "$classes" ]] || ! printf '%s\n' "${cp[@]}" | grep -q "/jp-runtime-$version.jar$"; then
        fail "$what, with the instrumented classes first and the runtime"; show "$work/ide-file.txt"
        return
    fi
    rm -rf "$profiles/ide"
    (cd "$dir" && java "${vm[@]}" -cp "$(IFS=:; echo "${cp[*]}")" "$main") >"$work/ide-run.log" 2>&1
    runs=("$profiles"/ide/ide-*.jpprof)
    if [[ -s ${runs[0]} ]] && "$jp" report "${runs[@]}" --format folded | grep -q 'Leaderboard.rank'; then
        pass "$what; java with its class path and JVM options runs $main instrumented and writes ${runs[0]#"$dir"/}"
    else
        fail "$what; java with its class path and JVM options runs $main instrumented"
        show "$work/ide-file.txt"; show "$work/ide-run.log"
    fi
}

# check_params_contexts FOLDED-CALLS FOLDED-BYTECODES: the profile of integration-tests/maven/params-demo
# (JUnit 5, run by Surefire or by Gradle) has each invocation of its parameterized test as a context
# of its own, with @BeforeEach inside it, @BeforeAll under the class's context, and the longer line
# running more bytecodes.
check_params_contexts() {
    local calls=$1 bytecodes=$2 invocations=0 invocation short long
    local test='[test] org.example.params.FieldsTest#splits(String, int)'
    local split='org.example.params.Fields.split(java.lang.String):java.util.List'
    for invocation in '[1] a, 1' '[2] a,b, 2' '[3] a,b,c,d,e,f,g,h, 8'; do
        grep -qxF "$test > $invocation;$split 1" "$calls" &&
            grep -qE "^$(sed 's/[][().*^$]/\\&/g' <<<"$test > $invocation");org\.example\.params\.Fields\.<init>[^;]* 1$" "$calls" &&
            invocations=$((invocations + 1))
    done
    short=$(grep -F "$test > [1] a, 1;$split " "$bytecodes" | awk '{ print $NF }')
    long=$(grep -F "$test > [3] a,b,c,d,e,f,g,h, 8;$split " "$bytecodes" | awk '{ print $NF }')
    if ((invocations == 3 && ${long:-0} > ${short:-0})) &&
        grep -qF '[test] org.example.params.FieldsTest;org.example.params.Fields.loadSeparators():void 1' "$calls"; then
        pass "per-test: params: 3 invocations of a parameterized test told apart, each with its @BeforeEach; @BeforeAll under the class ($short and $long bytecodes in split)"
    else
        fail "per-test: params: invocations told apart ($invocations of 3; split: ${short:-?} and ${long:-?} bytecodes)"
        grep -F 'FieldsTest' "$calls" | head -20
    fi
}

# check_demo_tests FOLDED REPORTS PROFILE...: the demo's profiles (examples/*-demo, JUnit 4) give
# every test of the JUnit XML reports under REPORTS its own top-level context (check_per_test, with
# the calls written to FOLDED), StatsTest's instance set-up (a field of four players) counts inside
# each of its tests, and the class has its own context from JUnit 4.13's class notifications.
check_demo_tests() {
    local folded=$1 reports=$2 setups
    shift 2
    if "$jp" report "$@" --format folded --metric calls --out "$folded"; then
        check_per_test demo "$folded" "$reports"
    else
        fail "per-test: demo: jp report"
    fi
    setups=$(grep -cE '^\[test\] org\.example\.leaderboard\.StatsTest#[^;]*;org\.example\.leaderboard\.Player\.<init>[^;]* 4$' "$folded")
    if ((setups == 3)) && grep -qxF '[test] org.example.leaderboard.StatsTest 1' "$folded"; then
        pass "per-test: demo: StatsTest's set-up (4 players) counts inside each of its 3 tests; the class has a context of its own"
    else
        fail "per-test: demo: set-up inside the tests ($setups of 3)"; grep -F 'StatsTest' "$folded" | head -10
    fi
}
