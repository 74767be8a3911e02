#!/usr/bin/env bash
# Round-trip suite: `jp roundtrip` must give back every class file byte for byte.
#
# Builds the `jp` CLI (release) and runs `jp roundtrip --quiet` and `jp roundtrip --quiet --deep`
# over three inputs:
#   jdk17-java.base  $JDK17/jmods/java.base.jmod (JDK 17 from JAVA_HOME, else the Debian package)
#   temurin25-image  every module of a Temurin 25 image, extracted once with `jimage extract` into
#                    ${JP_CACHE_DIR:-$HOME/.cache/jp}/temurin25-<version>; skipped when no Temurin 25
#                    is installed (set TEMURIN25_HOME to point at one)
#   corpus           the jars of integration-tests/corpus (fetched by corpus/fetch.sh)
# A check passes when jp exits 0 and its last line reads `... 0 differ, 0 failed` with at least one
# class, within JP_ROUNDTRIP_TIMEOUT seconds (600). A last check feeds jp a truncated class and
# expects it to be counted as failed, with exit 1. One line per check; on a failure the classes
# at fault are listed (a second run without --quiet). Exits 1 if any check failed, 2 if the suite
# could not run at all.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=lib/jdks.sh
source "$root/integration-tests/lib/jdks.sh"
cache=${JP_CACHE_DIR:-$HOME/.cache/jp}
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp
# Seconds that one `jp roundtrip` may take before it counts as failed (exit 124): a hang must not
# eat CI's time. Each takes about a second today.
limit=${JP_ROUNDTRIP_TIMEOUT:-600}

log() { printf '%s\n' "$*"; }
die() { printf 'roundtrip.sh: %s\n' "$*" >&2; exit 2; }

# Extracts the whole image once; the directory name carries the exact version, and a marker file
# written last tells a complete extraction from an interrupted one.
extract_image() {
    local jdk=$1 dir
    dir=$cache/temurin25-$(jdk_version "$jdk")
    if [[ ! -f $dir/.complete ]]; then
        log "roundtrip.sh: extracting $jdk/lib/modules into $dir" >&2
        rm -rf "$dir" "$dir.partial"
        mkdir -p "$dir.partial"
        "$jdk/bin/jimage" extract --dir "$dir.partial" "$jdk/lib/modules"
        touch "$dir.partial/.complete"
        mv "$dir.partial" "$dir"
    fi
    echo "$dir"
}

# Seconds, with one decimal, since START (microseconds from EPOCHREALTIME).
seconds_since() {
    local tenths=$(((${EPOCHREALTIME/[.,]/} - $1) / 100000))
    printf '%d.%d' $((tenths / 10)) $((tenths % 10))
}

passed=0
failed=0

# check NAME FLAGS INPUT...: one `jp roundtrip` run and its result line.
check() {
    local name=$1 flags=$2 out start elapsed status last
    shift 2
    out=$(mktemp)
    start=${EPOCHREALTIME/[.,]/}
    status=0
    # shellcheck disable=SC2086 # FLAGS is a word list on purpose
    timeout "$limit" "$jp" roundtrip --quiet $flags "$@" >"$out" 2>&1 || status=$?
    elapsed=$(seconds_since "$start")
    last=$(tail -n 1 "$out")
    if ((status == 124)); then last="timed out after ${limit}s"; fi
    if ((status == 0)) && [[ $last =~ ^roundtrip:\ ([0-9]+)\ classes,\ [0-9]+\ identical,\ 0\ differ,\ 0\ failed$ ]] \
        && ((BASH_REMATCH[1] > 0)); then
        log "PASS $name ${flags:+($flags) }in ${elapsed}s: $last"
        passed=$((passed + 1))
    else
        log "FAIL $name ${flags:+($flags) }in ${elapsed}s (exit $status): $last"
        head -n -1 "$out" | head -n 20 | sed 's/^/    /'
        log "    classes at fault (first 40, from a run without --quiet):"
        # shellcheck disable=SC2086
        timeout "$limit" "$jp" roundtrip $flags "$@" 2>&1 | grep -v '^roundtrip: ' | head -n 40 | sed 's/^/    /' || true
        failed=$((failed + 1))
    fi
    rm -f "$out"
}

log "roundtrip.sh: building jp (cargo build --release -p jp-cli)"
(cd "$root" && cargo build --release --quiet -p jp-cli) || die "cargo build failed"
[[ -x $jp ]] || die "no binary at $jp after the build"

jdk17=$(find_jdk17) || die "no JDK 17 with jmods found (set JAVA_HOME to one)"
check jdk17-java.base "" "$jdk17/jmods/java.base.jmod"
check jdk17-java.base --deep "$jdk17/jmods/java.base.jmod"

if temurin=$(find_temurin25); then
    image=$(extract_image "$temurin")
    check temurin25-image "" "$image"
    check temurin25-image --deep "$image"
else
    log "SKIP temurin25-image: no Temurin 25 installed (set TEMURIN25_HOME to one)"
fi

corpus=$(bash "$root/integration-tests/corpus/fetch.sh") || die "could not fetch the corpus"
# jp walks a directory for class files only, so the jars are named one by one.
shopt -s nullglob
jars=("$corpus"/*.jar)
check corpus "" "${jars[@]}"
check corpus --deep "${jars[@]}"

# A negative control: a truncated class must be counted as failed, with exit 1, so that a jp that
# called everything identical could not pass this suite.
control=$(mktemp -d)
printf '\xca\xfe\xba\xbe\x00\x00\x00\x34\x00' >"$control/Truncated.class"
status=0
last=$(timeout "$limit" "$jp" roundtrip --quiet "$control" 2>/dev/null | tail -n 1) || status=$?
if ((status == 1)) && [[ $last == "roundtrip: 1 classes, 0 identical, 0 differ, 1 failed" ]]; then
    log "PASS negative-control: a truncated class is reported: $last"
    passed=$((passed + 1))
else
    log "FAIL negative-control (exit $status, expected 1): '$last'"
    failed=$((failed + 1))
fi
rm -rf "$control"

log "roundtrip.sh: $passed checks passed, $failed failed"
((failed == 0))
