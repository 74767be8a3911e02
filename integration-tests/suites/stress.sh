#!/usr/bin/env bash
# Stress suite: `jp instrument` must keep behaviour and keep classes verifiable, with the test-only
# stress scheme and with the profiling scheme.
#
# The stress scheme (engine/rewrite/src/stress.rs) rewrites every method with every edit the
# bytecode layer knows: counters per basic block, calls at loop headers (new frames), an extra
# parameter on private methods, and with --stress-pad N padding that forces branch widening.
#
# (a) behaviour: the programs of integration-tests/behaviour/ are compiled (java8/ with
#     `--release 8` and `--release 17`, java17/ with `--release 17`, and with Temurin 25 also
#     java8/, java17/ and java25/ with `--release 25`), then run plain, instrumented with
#     `--scheme stress` and with `--scheme stress --stress-pad 40000`. stdout, stderr and the exit
#     status must be identical. The same programs also run instrumented with the profiling scheme
#     (`--bba precise`, the runtime jar on the class path), with the same outputs, and must write
#     a profile. Every instrumented class must also pass VerifyClasses, the rewrite must have
#     happened (a `$jp$poll` method, or calls into the runtime, in the classes), and
#     BigMethod.big must be kept unrewritten, with a warning, once padded past 64 KB.
# (b) verification: the Maven corpus (integration-tests/corpus, each jar checked on its own with
#     all corpus jars as dependencies) and the non-`java/` classes of JDK 17's java.base
#     (extracted once into the cache) are checked before and after `--scheme stress` by HotSpot
#     (VerifyClasses on JDK 17, and on Temurin 25 when present, which also reads the corpus's
#     Java 21 classes) and by the JDK 25 ClassFile API verifier (ClassFileVerify, Temurin 25),
#     and the same again after the profiling scheme (`--bba precise`), the runtime jar beside.
#     With `--stress-pad 40000`, java.base and a subset of the corpus (pad_jar_names below; every
#     method grows by 40 KB, which makes jp and the verifiers slow) are checked by Temurin 25's
#     HotSpot and ClassFile API (JDK 17's HotSpot without Temurin 25). A check fails when a class
#     fails after the rewrite that did not fail before (see integration-tests/verify/README.md).
#     After the profiling scheme, serializable classes must keep their serialVersionUID, and every
#     class that ASM's API level 5 visitors read before (as old tools such as Mockito 2's inline
#     mock maker do; OldAsmRead.java) must read after.
# Every jp run is done twice, and both runs must write the same bytes.
#
# One PASS/FAIL/SKIP line per check, with its time; the reports of a failed check are kept and
# their path printed. Set TEMURIN25_HOME to point at a Temurin 25 (`none` to run without one),
# JAVA_HOME at a JDK 17.
# Exits 1 if any check failed, 2 if the suite could not run.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cache=${JP_CACHE_DIR:-$HOME/.cache/jp}
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp
jp_stress=$target/release/jp-stress
limit=${JP_STRESS_TIMEOUT:-600} # seconds for one jp or verifier run
export VERIFY_TIMEOUT=$limit
pad=40000
behaviour=$root/integration-tests/behaviour

# shellcheck disable=SC1091 # sourced by path; shellcheck it on its own
source "$root/integration-tests/verify/lib.sh"
# shellcheck source=../lib/jdks.sh
source "$root/integration-tests/lib/jdks.sh"

log() { printf '%s\n' "$*"; }
die() { printf 'stress.sh: %s\n' "$*" >&2; exit 2; }

now() { echo "${EPOCHREALTIME/[.,]/}"; }
# Seconds, with one decimal, since START (from now()).
seconds_since() {
    local tenths=$((($(now) - $1) / 100000))
    printf '%d.%d' $((tenths / 10)) $((tenths % 10))
}

passed=0
failed=0
pass() { log "PASS $*"; passed=$((passed + 1)); }
fail() { log "FAIL $*"; failed=$((failed + 1)); keep=1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/jp-stress.XXXXXX")
keep=0
cleanup() {
    local dir
    if ((keep)); then
        # Padded directory outputs (java.base) take about 1 GB each: rerun jp to get them back.
        for dir in "$work"/verify/*/*/; do
            [[ -d $dir ]] || continue
            if (($(du -sm "$dir" | cut -f1) > 200)); then rm -rf "$dir"; fi
        done
        log "stress.sh: reports kept in $work"
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

suite_start=$(now)
log "stress.sh: building jp and jp-stress (cargo build --release -p jp-cli -p jp-stress)"
(cd "$root" && cargo build --release --quiet -p jp-cli -p jp-stress) || die "cargo build failed"
[[ -x $jp && -x $jp_stress ]] || die "no binaries at $jp and $jp_stress after the build"

jdk17=$(find_jdk17) || die "no JDK 17 with jmods found (set JAVA_HOME to one)"
log "stress.sh: building the runtime jar (mvn package -pl java-runtime)"
mvn -q -f "$root/pom.xml" -pl java-runtime -am package -DskipTests >"$work/mvn.log" 2>&1 ||
    { tail -n 30 "$work/mvn.log"; die "the runtime jar did not build"; }
runtime=$(ls "$root"/java-runtime/target/jp-runtime-*.jar | grep -v -e sources -e javadoc | head -n 1)
temurin=$(find_temurin25) || temurin=
[[ -n $temurin ]] || log "stress.sh: no Temurin 25 (set TEMURIN25_HOME): its checks are skipped"
verify_build "$jdk17" "$temurin" || die "could not compile integration-tests/verify"

# scheme_flags VARIANT: the flags for a variant: stress, pad (stress, padded) or profile. The
# stress variants start with `jp-stress`: that program runs them instead of `jp instrument`.
scheme_flags() {
    case $1 in
    stress) echo "jp-stress" ;;
    pad) echo "jp-stress --pad $pad" ;;
    profile) echo "--scheme profile --bba precise" ;;
    esac
}

# instrument NAME OUT FLAGS INPUT...: runs jp into OUT, keeps its output in OUT.log; a FAIL line
# and status 1 when jp fails. Prints nothing on success (the caller reports).
instrument() {
    local name=$1 out=$2 flags=$3 status=0 start command=("$jp" instrument)
    shift 3
    [[ $flags == jp-stress* ]] && command=("$jp_stress") flags=${flags#jp-stress}
    start=$(now)
    # shellcheck disable=SC2086 # FLAGS is a word list on purpose
    timeout "$limit" "${command[@]}" "$@" --out "$out" $flags >"$out.log" 2>&1 || status=$?
    instrument_time=$(seconds_since "$start")
    instrument_summary=$(grep '^instrument: ' "$out.log" | tail -n 1)
    if ((status != 0)) || [[ -z $instrument_summary ]]; then
        fail "$name: jp instrument exited $status in ${instrument_time}s: ${instrument_summary:-no summary}"
        grep -v '^warning: ' "$out.log" | head -n 20 | sed 's/^/    /' || true
        return 1
    fi
}

# deterministic NAME OUT FLAGS INPUT...: runs jp a second time, into OUT.again, and requires the
# same bytes as in OUT (docs/architecture.md: an incremental run must give the bytes of a clean run).
# OUT.again is kept when they differ.
deterministic() {
    local name=$1 out=$2 flags=$3 differing file a b
    shift 3
    instrument "$name (again)" "$out.again" "$flags" "$@" || return 0
    differing=$(diff -rq "$out" "$out.again" 2>&1 | sed "s|^Files $out/\(.*\) and .* differ\$|differs: \1|") || true
    if [[ -z $differing ]]; then
        pass "$name deterministic: a second jp run wrote the same bytes ($(find "$out" -type f | wc -l) files)"
    else
        fail "$name deterministic: a second jp run wrote different bytes"
        printf '%s\n' "$differing" | head -n 10 | sed 's/^/    /' || true
        # Name the classes that differ inside the first differing jars.
        for file in $(diff -rq "$out" "$out.again" 2>/dev/null | awk '/\.jar and /{print $2}' | head -n 3); do
            a=$(mktemp -d) b=$(mktemp -d)
            (cd "$a" && unzip -q "$file" && cd "$b" && unzip -q "${file/#$out/$out.again}") || true
            diff -rq "$a" "$b" | sed "s|^Files $a/\(.*\) and .* differ\$|    ${file##*/}: differs: \1|" | head -n 5 || true
            rm -rf "$a" "$b"
        done
        return
    fi
    rm -rf "$out.again"
}

# ---------------------------------------------------------------------------------------------
# (a) behaviour

# run_program JAVA CLASSPATH CLASS OUT [JVM-OPTION...]: runs CLASS; OUT.out, OUT.err and the status
# in OUT.out.
run_program() {
    local java=$1 dir=$2 class=$3 out=$4 status=0
    shift 4
    timeout 120 "$java" -Xss4m "$@" -cp "$dir" "$class" >"$out.out" 2>"$out.err" || status=$?
    echo "exit status $status" >>"$out.out"
}

# behaviour_variant NAME SOURCES_DIR RELEASE JDK: compiles, instruments twice, runs, compares.
behaviour_variant() {
    local name=$1 sources=$2 release=$3 jdk=$4 start dir classes programs program flags variant
    start=$(now)
    dir=$work/behaviour/$name
    classes=$dir/classes
    mkdir -p "$classes" "$dir/src"
    cp "$sources"/*.java "$dir/src/"
    if [[ $sources == "$behaviour/java8" ]]; then
        bash "$behaviour/generated/big-method.sh" "$dir/src"
    fi
    if ! "$jdk/bin/javac" --release "$release" -nowarn -Xlint:-options -d "$classes" "$dir/src"/*.java \
        >"$dir/javac.log" 2>&1; then
        fail "behaviour $name: javac --release $release failed"
        head -n 20 "$dir/javac.log" | sed 's/^/    /' || true
        return
    fi
    programs=()
    for program in "$dir/src"/*.java; do
        program=${program##*/}
        programs+=("${program%.java}")
    done

    for variant in stress pad profile; do
        flags=$(scheme_flags "$variant")
        instrument "behaviour $name $variant" "$dir/$variant" "$flags" "$classes" || continue
        deterministic "behaviour $name $variant" "$dir/$variant" "$flags" "$classes"
        marker='$jp$poll'
        [[ $variant == profile ]] && marker=org/jpprof/runtime/RC
        if ! grep -lqaF "$marker" "$dir/$variant"/*.class; then
            fail "behaviour $name $variant: no class refers to $marker, nothing was rewritten: $instrument_summary"
        fi
        local verify_out
        verify_out=$(verify_hotspot "$jdk/bin/java" --cp "$runtime" --report "$dir/$variant.verify.txt" \
            --tsv "$dir/$variant.verify.tsv" "$dir/$variant" 2>&1 | tail -n 1)
        if [[ $verify_out =~ ^verify:\ [1-9][0-9]*\ classes,\ 0\ verify\ errors,\ 0\ other\ failures$ ]]; then
            pass "behaviour $name $variant verify: $verify_out"
        else
            fail "behaviour $name $variant verify: $verify_out (report: $dir/$variant.verify.txt)"
            head -n 30 "$dir/$variant.verify.txt" | sed 's/^/    /' || true
        fi
    done
    if [[ -f $dir/pad.log && -n ${programs[*]} && " ${programs[*]} " == *" BigMethod "* ]]; then
        if grep -q '^warning: .*BigMethod\.big(I)J: .*65535' "$dir/pad.log" \
            && ! grep -q '^warning: .*BigMethod' "$dir/stress.log"; then
            pass "behaviour $name BigMethod kept unrewritten only when padded: $(grep -m1 'BigMethod' "$dir/pad.log" | cut -c1-160)"
        else
            fail "behaviour $name BigMethod: expected a size warning with --stress-pad $pad only"
            grep 'BigMethod' "$dir/stress.log" "$dir/pad.log" | head -n 5 | sed 's/^/    /' || true
        fi
    fi

    for program in "${programs[@]}"; do
        run_program "$jdk/bin/java" "$classes" "$program" "$dir/$program.plain"
        for variant in stress pad profile; do
            [[ -d $dir/$variant ]] || continue
            # The test-only stress scheme adds members that reflection shows on purpose (a poll
            # method, extra parameters); programs that look at members check the profiling scheme.
            [[ $variant != profile && " ${profile_only[*]} " == *" $program "* ]] && continue
            rm -f "$dir/$program.jpprof"
            run_program "$jdk/bin/java" "$dir/$variant:$runtime" "$program" "$dir/$program.$variant" \
                "-Djp.output=$dir/$program.jpprof"
            if [[ $variant == profile && ! -s $dir/$program.jpprof ]]; then
                fail "behaviour $name $program profile: no profile written"
            fi
            if cmp -s "$dir/$program.plain.out" "$dir/$program.$variant.out" \
                && cmp -s "$dir/$program.plain.err" "$dir/$program.$variant.err"; then
                pass "behaviour $name $program $variant: $(wc -l <"$dir/$program.plain.out") lines, $(tail -n 1 "$dir/$program.plain.out")"
            else
                fail "behaviour $name $program $variant: output differs from the plain run"
                diff "$dir/$program.plain.out" "$dir/$program.$variant.out" | head -n 10 | sed 's/^/    out: /' || true
                diff "$dir/$program.plain.err" "$dir/$program.$variant.err" | head -n 10 | sed 's/^/    err: /' || true
            fi
        done
    done
    log "TIME behaviour $name: $(seconds_since "$start")s"
}

# Programs whose output shows the classes' members, kept identical by the profiling scheme only.
profile_only=(Reflection)
behaviour_start=$(now)
behaviour_variant java8-release8 "$behaviour/java8" 8 "$jdk17"
behaviour_variant java8-release17 "$behaviour/java8" 17 "$jdk17"
behaviour_variant java17-release17 "$behaviour/java17" 17 "$jdk17"
if [[ -n $temurin ]]; then
    behaviour_variant java8-release25 "$behaviour/java8" 25 "$temurin"
    behaviour_variant java17-release25 "$behaviour/java17" 25 "$temurin"
    behaviour_variant java25-release25 "$behaviour/java25" 25 "$temurin"
else
    log "SKIP behaviour java8-release25, java17-release25, java25-release25: no Temurin 25"
fi
log "TIME behaviour: $(seconds_since "$behaviour_start")s"

# ---------------------------------------------------------------------------------------------
# (b) verification

# The non-java/ classes of JDK 17's java.base, extracted once.
extract_java_base() {
    local dir
    dir=$cache/jdk17-java.base-$(jdk_version "$jdk17")
    if [[ ! -f $dir/.complete ]]; then
        log "stress.sh: extracting $jdk17/jmods/java.base.jmod into $dir" >&2
        rm -rf "$dir" "$dir.partial"
        mkdir -p "$dir.partial"
        "$jdk17/bin/jmod" extract --dir "$dir.partial/jmod" "$jdk17/jmods/java.base.jmod" >&2
        mv "$dir.partial/jmod/classes" "$dir.partial/classes"
        rm -rf "$dir.partial/jmod" "$dir.partial/classes/java"
        touch "$dir.partial/.complete"
        mv "$dir.partial" "$dir"
    fi
    echo "$dir/classes"
}

# verifier_check NAME KIND JAVA BEFORE_TSV OUT_PREFIX ARGS...: runs one verifier (KIND hotspot or
# classfile) with ARGS (options, then the instrumented roots) and compares with BEFORE_TSV.
verifier_check() {
    local name=$1 kind=$2 java=$3 before=$4 prefix=$5 start summary status=0 compare
    shift 5
    start=$(now)
    summary=$("verify_$kind" "$java" --report "$prefix.txt" --tsv "$prefix.tsv" "$@" 2>&1) || status=$?
    if ((status != 0)); then
        fail "$name: the verifier exited $status in $(seconds_since "$start")s"
        printf '%s\n' "$summary" | head -n 20 | sed 's/^/    /' || true
        return
    fi
    compare=$(verify_compare "$jdk17/bin/java" "$before" "$prefix.tsv") || status=$?
    local line
    local before_counts
    before_counts=$(awk -F '\t' '$2 == "verify" { v++ } $2 == "other" { o++ }
        END { printf "%d verify errors, %d other failures", v, o }' "$before")
    line="$name in $(seconds_since "$start")s: before: $before_counts; after: $(printf '%s\n' "$summary" | grep -m1 '^verify: '); $(printf '%s\n' "$compare" | tail -n 1)"
    if ((status == 0)); then
        pass "$line"
    else
        fail "$line (reports: ${before%.tsv}.txt, $prefix.txt)"
        printf '%s\n' "$compare" | head -n 40 | sed 's/^/    /' || true
    fi
}

# serial_check NAME DIR ORIGINALS_ARRAY REWRITTEN_ARRAY: the serialVersionUID of every serializable
# class must be the same before and after (classes that cannot be loaded on either side are left
# out, and counted).
serial_check() {
    local name=$1 dir=$2 start compared skipped differing
    local -n before_roots=$3 after_roots=$4
    start=$(now)
    local cp=(); ((${#verify_opts[@]} > 0)) && cp=(--cp "${verify_opts[-1]}")
    # Lines are keyed by the root's position, the same before and after.
    serial_uids "$jdk17/bin/java" "${cp[@]}" "${before_roots[@]}" 2>"$dir/serial-before.err" |
        LC_ALL=C sort >"$dir/serial-before.tsv"
    serial_uids "$jdk17/bin/java" "${cp[@]}" "${after_roots[@]}" 2>"$dir/serial-after.err" |
        LC_ALL=C sort >"$dir/serial-after.tsv"
    LC_ALL=C join -t $'\t' "$dir/serial-before.tsv" "$dir/serial-after.tsv" |
        awk -F '\t' '$2 !~ /^error/ && $3 !~ /^error/' >"$dir/serial-both.tsv"
    differing=$(awk -F '\t' '$2 != $3' "$dir/serial-both.tsv")
    compared=$(wc -l <"$dir/serial-both.tsv")
    skipped=$(($(wc -l <"$dir/serial-before.tsv") - compared))
    if [[ -z $differing && $compared -gt 0 ]]; then
        pass "$name serialVersionUID in $(seconds_since "$start")s: $compared serializable classes keep their value ($skipped not loadable, left out)"
    else
        fail "$name serialVersionUID: $(grep -c . <<<"$differing") of $compared classes changed"
        head -n 10 <<<"$differing" | sed 's/^/    /' || true
    fi
}

# old_asm_check NAME DIR BEFORE-ROOTS AFTER-ROOTS (array names): every class that an old bytecode
# tool (ASM API level 5 visitors, as Mockito 2's inline mock maker has; OldAsmRead.java) reads
# before instrumentation, it also reads after. Needs the corpus's ASM jar.
old_asm_check() {
    local name=$1 dir=$2 start asm classes broken
    local -n asm_before=$3 asm_after=$4
    start=$(now)
    asm=$(ls "$corpus"/asm-9*.jar 2>/dev/null | head -n 1)
    classes=$work/old-asm
    if [[ -z $asm ]]; then
        fail "$name old ASM readers: no ASM jar in the corpus"
        return
    fi
    if [[ ! -f $classes/OldAsmRead.class ]] && ! { mkdir -p "$classes" &&
        "$jdk17/bin/javac" -nowarn -d "$classes" -cp "$asm:$VERIFY_HOTSPOT_CP" "$root/integration-tests/verify/OldAsmRead.java"; }; then
        fail "$name old ASM readers: OldAsmRead does not compile"
        return
    fi
    "$jdk17/bin/java" -cp "$classes:$asm:$VERIFY_HOTSPOT_CP" OldAsmRead "${asm_before[@]}" | LC_ALL=C sort >"$dir/old-asm-before.tsv"
    "$jdk17/bin/java" -cp "$classes:$asm:$VERIFY_HOTSPOT_CP" OldAsmRead "${asm_after[@]}" | LC_ALL=C sort >"$dir/old-asm-after.tsv"
    broken=$(LC_ALL=C join -t $'\t' "$dir/old-asm-before.tsv" "$dir/old-asm-after.tsv" | awk -F '\t' '$2 == "ok" && $3 != "ok"')
    if [[ -z $broken && -s $dir/old-asm-after.tsv ]]; then
        pass "$name old ASM readers in $(seconds_since "$start")s: $(grep -c $'\tok$' "$dir/old-asm-after.tsv") of $(wc -l <"$dir/old-asm-after.tsv") classes read by API 5 visitors, none lost"
    else
        fail "$name old ASM readers: $(grep -c . <<<"$broken") classes readable before are not after"
        head -n 5 <<<"$broken" | sed 's/^/    /' || true
    fi
}

# baseline KIND JAVA PREFIX ARGS...: the verifier's findings on the original classes.
baseline() {
    local kind=$1 java=$2 prefix=$3 status=0
    shift 3
    "verify_$kind" "$java" --report "$prefix.txt" --tsv "$prefix.tsv" "$@" >"$prefix.summary" 2>&1 || status=$?
    if ((status != 0)); then
        fail "baseline $prefix: the verifier exited $status"
        head -n 20 "$prefix.summary" | sed 's/^/    /' || true
        return 1
    fi
}

# verify_corpus NAME ROOT...: checks ROOT... (jars or directories) with every verifier, then
# instruments them with `--scheme stress` and checks the output against those baselines; then the
# same with `--stress-pad` for the roots in the array pad_roots (a subset: padding every method by
# 40 KB makes both jp and the verifiers slow), with the verifiers in pad_verifiers. The array
# verify_opts holds the harness options (--separate, --cp).
verify_corpus() {
    local name=$1 start dir variant flags java_name java kind v original before
    shift
    local -a originals=("$@") roots rewritten selected prefixes
    start=$(now)
    dir=$work/verify/$name
    mkdir -p "$dir"

    for v in "${verifiers[@]}"; do
        IFS=: read -r kind java_name java <<<"$v"
        baseline "$kind" "$java" "$dir/before-$kind-$java_name" "${verify_opts[@]}" "${originals[@]}" || return
    done
    log "TIME $name baselines: $(seconds_since "$start")s"

    for variant in stress pad profile; do
        flags=$(scheme_flags "$variant")
        if [[ $variant != pad ]]; then
            roots=("${originals[@]}")
            selected=("${verifiers[@]}")
        else
            roots=("${pad_roots[@]}")
            selected=("${pad_verifiers[@]}")
            if ((${#roots[@]} == 0)); then
                log "SKIP $name pad: $pad_skip_reason"
                continue
            fi
        fi
        instrument "$name $variant" "$dir/$variant" "$flags" "${roots[@]}" || continue
        log "INFO $name $variant: ${#roots[@]} inputs, jp instrument in ${instrument_time}s: $instrument_summary"
        deterministic "$name $variant" "$dir/$variant" "$flags" "${roots[@]}"
        rewritten=()
        prefixes=()
        for original in "${roots[@]}"; do
            if [[ -d $original ]]; then rewritten+=("$dir/$variant"); else rewritten+=("$dir/$variant/${original##*/}"); fi
            prefixes+=("${original##*/}!")
        done
        for v in "${selected[@]}"; do
            IFS=: read -r kind java_name java <<<"$v"
            before=$dir/before-$kind-$java_name.tsv
            if ((${#roots[@]} < ${#originals[@]})); then
                # A subset of jars, each checked on its own (--separate): their lines of the baseline.
                awk -F '\t' -v list="${prefixes[*]}" 'BEGIN { n = split(list, p, " ") }
                    { for (i = 1; i <= n; i++) if (index($1, p[i]) == 1) { print; next } }' \
                    "$before" >"$dir/before-$variant-$kind-$java_name.tsv"
                before=$dir/before-$variant-$kind-$java_name.tsv
            fi
            verifier_check "$name $variant $kind-$java_name" "$kind" "$java" "$before" \
                "$dir/after-$variant-$kind-$java_name" "${verify_opts[@]}" "${rewritten[@]}"
        done
        if [[ $variant == profile ]]; then
            serial_check "$name $variant" "$dir" roots rewritten
            old_asm_check "$name $variant" "$dir" roots rewritten
        fi
    done
    log "TIME $name: $(seconds_since "$start")s"
}

# The verifiers, as KIND:JVM-NAME:JAVA. HotSpot 17 cannot read the corpus's Java 21 classes (it
# counts them as skipped); Temurin 25 reads them all.
verifiers=("hotspot:jdk17:$jdk17/bin/java")
pad_verifiers=("hotspot:jdk17:$jdk17/bin/java")
if [[ -n $temurin ]]; then
    verifiers+=("hotspot:temurin25:$temurin/bin/java" "classfile:temurin25:$temurin/bin/java")
    pad_verifiers=("hotspot:temurin25:$temurin/bin/java" "classfile:temurin25:$temurin/bin/java")
else
    log "SKIP hotspot-temurin25 and classfile-temurin25 checks: no Temurin 25"
fi

# The padded corpus run: jars of every era and shape (jsr/ret from 1.x compilers, Java 5-8,
# multi-release, Java 17, Kotlin, Scala 3, ecj's huge methods), chosen to stay within the time
# budget: the whole corpus padded takes jp about 7 minutes and each verifier about 6.
pad_jar_names=(commons-lang-2.0 junit-3.8.1 log4j-1.2.8 asm-9.7.1 gson-2.8.9 jackson-core-2.18.2
    commons-lang3-3.17.0 jetty-server-12.0.16 scala3-library_3-3.3.4 kotlin-stdlib-2.1.0 ecj-3.40.0)

verify_start=$(now)
corpus=$(bash "$root/integration-tests/corpus/fetch.sh") || die "could not fetch the corpus"
shopt -s nullglob
jars=("$corpus"/*.jar)
((${#jars[@]} > 0)) || die "no jars in $corpus"
deps=$(IFS=:; echo "${jars[*]}"):$runtime
verify_opts=(--separate --cp "$deps")
pad_roots=()
for name in "${pad_jar_names[@]}"; do
    [[ -f $corpus/$name.jar ]] && pad_roots+=("$corpus/$name.jar")
done
pad_skip_reason="none of the chosen jars is in the corpus"
verify_corpus corpus "${jars[@]}"

java_base=$(extract_java_base) || die "could not extract java.base"
verify_opts=(--cp "$runtime")
pad_roots=("$java_base")
verify_corpus jdk17-java.base "$java_base"
log "TIME verification: $(seconds_since "$verify_start")s"

log "TIME stress.sh: $(seconds_since "$suite_start")s"
log "stress.sh: $passed checks passed, $failed failed"
((failed == 0))
