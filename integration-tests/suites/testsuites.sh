#!/usr/bin/env bash
# Test-suites suite: real test suites pass on instrumented classes exactly as they pass on the
# originals (docs/architecture.md, "Verification").
#
# (a) Published libraries whose tests are on Maven Central as `tests`-classifier jars
#     (integration-tests/testsuites/libs/*.xml): commons-lang3, commons-codec, commons-collections4.
#     Each runs with the JUnit Platform console launcher twice: on the original jars, then with the
#     library's main jar replaced by `jp instrument`'s output (the profiling scheme, --bba
#     default) and the runtime jar on the class path. The sets of passed, failed and skipped tests
#     must be identical, and the instrumented run must write a profile.
# (b) The Mockito suite of integration-tests/testsuites/mockito: production classes (final and
#     static methods, an interface with default and static methods, an abstract class, an enum with
#     bodies, records, a sealed interface, lambdas and anonymous classes) and JUnit 5 tests with
#     mocks, spies, static mocks, captors, answers and a dynamic proxy. They run with Mockito's
#     inline mock maker (its default) and with the subclass mock maker (the tests tagged `inline`
#     left out), each on the original and on the instrumented classes (--bba precise): every test
#     passes in all four runs. The same with Mockito 2.23 (integration-tests/testsuites/mockito2,
#     whose inline mock maker reads classes with an older ASM API level), with the production
#     classes compiled for Java 8 and for Java 11, and a test that reads an interface's constants
#     by reflection.
#
# Jars are fetched once into ${JP_CACHE_DIR:-~/.cache/jp}/testsuites. One PASS/FAIL line per check.
# TESTSUITES="commons-lang3 mockito mockito2" (say) runs only those.
# Exits 1 if a check failed, 2 if the suite could not run.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$root/integration-tests/testsuites
cache=${JP_CACHE_DIR:-$HOME/.cache/jp}/testsuites
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp
jdk=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
java=$jdk/bin/java
[[ -x $java ]] || java=java
javac=$jdk/bin/javac
[[ -x $javac ]] || javac=javac

passed=0
failed=0
pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); keep=1; }
die() { echo "testsuites.sh: $*" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/jp-testsuites.XXXXXX")
keep=0
trap '((keep)) && echo "testsuites.sh: work files kept in $work" || rm -rf "$work"' EXIT

(cd "$root" && cargo build --release --quiet -p jp-cli) || die "cargo build failed"
mvn -q -f "$root/pom.xml" -pl java-runtime -am package -DskipTests >"$work/mvn.log" 2>&1 ||
    { tail -n 30 "$work/mvn.log"; die "the runtime jar did not build"; }
runtime=$(ls "$root"/java-runtime/target/jp-runtime-*.jar | grep -v -e sources -e javadoc | head -n 1)

# fetch NAME: the jars of libs/NAME.xml, copied once into $cache/NAME; prints that directory.
# JUnit itself comes from the console launcher (libs/junit.xml), so the other suites leave it out.
fetch() {
    local name=$1 dir=$cache/$1 excludes=()
    [[ $name != junit ]] && excludes=(-DexcludeGroupIds=org.junit.jupiter,org.junit.platform,org.junit.vintage)
    if [[ ! -f $dir/.complete ]]; then
        rm -rf "$dir"
        mvn -q -f "$here/libs/$name.xml" dependency:copy-dependencies -DoutputDirectory="$dir" "${excludes[@]}" >&2 ||
            return 1
        touch "$dir/.complete"
    fi
    echo "$dir"
}

junit_dir=$(fetch junit) || die "could not fetch the JUnit console launcher"
launcher=$(ls "$junit_dir"/junit-platform-console-standalone-*.jar 2>/dev/null | head -n 1)
[[ -f $launcher ]] || die "no console launcher in $junit_dir"

# Tests written for Java 8 reflect into the JDK, which Java 17 allows only when opened.
opens=()
for package in java.lang java.lang.reflect java.util java.util.concurrent java.util.concurrent.atomic java.text \
    java.time java.io java.net java.nio java.math; do
    opens+=(--add-opens "java.base/$package=ALL-UNNAMED")
done

# A fixed heap makes memory-hungry tests (commons-codec's 1 GiB Base64 case checks the free
# memory first) take the same path on every machine instead of depending on its RAM.
# run_tests OUT CLASSPATH SCAN [LAUNCHER-ARGS...]: runs the tests found in SCAN (a jar or
# directory) with CLASSPATH, in the working directory $cwd (the test resources unpacked under
# src/test/resources, where tests that open them by path look); writes OUT.results (results.py)
# and OUT.log, and a profile to OUT.jpprof when the runtime is on the class path. Test classes are
# the ones Maven's Surefire runs by default: names ending in Test.
run_tests() {
    local out=$1 cp=$2 scan=$3
    shift 3
    (cd "$cwd" && timeout 900 "$java" -Xss4m -Xmx3g "${opens[@]}" -Djp.output="$out.jpprof" -cp "$cp:$launcher" \
        org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=summary \
        --reports-dir="$out.reports" --scan-class-path="$scan" --include-classname='^.*Test$' "$@") >"$out.log" 2>&1
    python3 "$here/results.py" "$out.reports" >"$out.results" 2>>"$out.log"
}

# counts RESULTS: "N passed, N failed, N skipped"
counts() {
    awk -F '\t' '{ n[$3]++ } END { printf "%d passed, %d failed, %d skipped", n["passed"], n["failed"], n["skipped"] }' "$1"
}

# compare NAME ORIGINAL INSTRUMENTED: the same results, a profile written.
compare() {
    local name=$1 original=$2 instrumented=$3
    if [[ ! -s $original.results ]]; then
        fail "$name: no tests ran on the original classes (see $original.log)"
        tail -n 20 "$original.log" | sed 's/^/    /'
    elif cmp -s "$original.results" "$instrumented.results"; then
        pass "$name: the same results on instrumented classes: $(counts "$instrumented.results")"
    else
        fail "$name: results differ on instrumented classes (original: $(counts "$original.results"); instrumented: $(counts "$instrumented.results"))"
        diff "$original.results" "$instrumented.results" | head -n 10 | sed 's/^/    /'
    fi
    if [[ -s $instrumented.jpprof ]] && "$jp" report "$instrumented.jpprof" --format folded >"$instrumented.folded" &&
        [[ -s $instrumented.folded ]]; then
        pass "$name: the instrumented run wrote a profile ($(wc -l <"$instrumented.folded") contexts with bytecodes)"
    else
        fail "$name: the instrumented run wrote no usable profile"
    fi
}

# (a) published libraries ------------------------------------------------------------------------
selected() { [[ -z ${TESTSUITES:-} || " $TESTSUITES " == *" $1 "* ]]; }

for lib in commons-lang3 commons-codec commons-collections4; do
    selected "$lib" || continue
    start=$SECONDS
    dir=$(fetch "$lib") || { fail "$lib: could not fetch its jars"; continue; }
    main=$(ls "$dir"/*.jar | grep -v -e '-tests\.jar$' | grep "/$lib-[0-9]" | head -n 1)
    tests=$(ls "$dir"/"$lib"-*-tests.jar | head -n 1)
    others=$(ls "$dir"/*.jar | grep -v -e "^$main\$" | paste -sd:)
    cwd=$work/$lib/cwd
    mkdir -p "$cwd/src/test/resources"
    unzip -qo "$tests" -x '*.class' 'META-INF/*' -d "$cwd/src/test/resources" 2>/dev/null
    if ! "$jp" instrument "$main" --out "$work/$lib/instrumented" --bba default >"$work/$lib/instrument.log" 2>&1; then
        fail "$lib: jp instrument failed"
        tail -n 5 "$work/$lib/instrument.log" | sed 's/^/    /'
        continue
    fi
    run_tests "$work/$lib/original" "$main:$others" "$tests"
    run_tests "$work/$lib/instrumented" "$work/$lib/instrumented/${main##*/}:$others:$runtime" "$tests"
    compare "$lib $(basename "$main" .jar) ($((SECONDS - start)) s)" "$work/$lib/original" "$work/$lib/instrumented"
done

# (b) Mockito -------------------------------------------------------------------------------------
# mockito_suite NAME SOURCES RELEASE INLINE-CP SUBCLASS-CP: compiles SOURCES' main classes with
# --release RELEASE and its tests, instruments the main classes (--bba precise), and runs the tests
# with each mock maker (class path INLINE-CP, then SUBCLASS-CP with the tests tagged `inline` left
# out) on the original and on the instrumented classes: every test passes in all four runs.
mockito_suite() {
    local name=$1 sources=$2 release=$3 inline_cp=$4 subclass_cp=$5 start=$SECONDS m maker cp extra
    m=$work/$name
    cwd=$m
    mkdir -p "$m/classes" "$m/test-classes"
    if ! "$javac" --release "$release" -d "$m/classes" $(find "$sources/src/main/java" -name '*.java') >"$m/javac.log" 2>&1 ||
        ! "$javac" --release 17 -d "$m/test-classes" -cp "$m/classes:$inline_cp:$launcher" \
            $(find "$sources/src/test/java" -name '*.java') >>"$m/javac.log" 2>&1; then
        cat "$m/javac.log"
        fail "$name: the suite does not compile"
        return
    fi
    if ! "$jp" instrument "$m/classes" --out "$m/instrumented" --bba precise >"$m/instrument.log" 2>&1; then
        fail "$name: jp instrument failed"
        tail -n 5 "$m/instrument.log" | sed 's/^/    /'
        return
    fi
    for maker in inline subclass; do
        extra=()
        cp=$inline_cp
        if [[ $maker == subclass ]]; then
            extra=(--exclude-tag inline)
            cp=$subclass_cp
        fi
        run_tests "$m/$maker-original" "$m/test-classes:$m/classes:$cp" "$m/test-classes" "${extra[@]}"
        run_tests "$m/$maker-instrumented" "$m/test-classes:$m/instrumented:$cp:$runtime" "$m/test-classes" "${extra[@]}"
        compare "$name $maker mock maker" "$m/$maker-original" "$m/$maker-instrumented"
        if grep -qv $'\tpassed$' "$m/$maker-original.results"; then
            fail "$name $maker mock maker: not every test passes on the original classes"
            grep -v $'\tpassed$' "$m/$maker-original.results" | head -n 5 | sed 's/^/    /'
        fi
    done
    echo "TIME $name: $((SECONDS - start)) s"
}

# Mockito 5: its inline mock maker is the default; mockito-subclass selects the subclass one.
if selected mockito; then
    mockito_dir=$(fetch mockito) && subclass_dir=$(fetch mockito-subclass) || die "could not fetch Mockito"
    mockito_cp=$(ls "$mockito_dir"/*.jar | paste -sd:)
    subclass_cp=$(ls "$subclass_dir"/mockito-subclass-*.jar | paste -sd:)
    mockito_suite mockito "$here/mockito" 17 "$mockito_cp" "$subclass_cp:$mockito_cp"
fi

# Mockito 2.23: the subclass mock maker is the default; a MockMaker resource (what the
# mockito-inline artifact holds) selects the inline one. Its inline mock maker cannot read a
# CONSTANT_Dynamic; the classes are compiled for Java 8 (interfaces' fields must be public) and
# for Java 11 (the first version with CONSTANT_Dynamic).
if selected mockito2; then
    mockito2_dir=$(fetch mockito2) || die "could not fetch Mockito 2"
    mockito2_cp=$(ls "$mockito2_dir"/*.jar | paste -sd:)
    for release in 8 11; do
        mockito_suite "mockito2-release$release" "$here/mockito2" "$release" "$here/mockito2/inline:$mockito2_cp" "$mockito2_cp"
    done
fi

echo "testsuites.sh: $passed checks passed, $failed failed"
((failed == 0))
