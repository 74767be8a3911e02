#!/usr/bin/env bash
# JP's demo: builds the `jp` CLI (release), shows `jp inspect` on two classes of the running JDK's
# java.base, then round-trips all of java.base (parse, write back, compare bytes), plainly and with
# --deep. The running JDK is JAVA_HOME, else the `java` on PATH; its java.base comes from
# jmods/java.base.jmod when the JDK has jmods, else from lib/modules through `jimage extract`.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp

step() { printf '\n== %s\n' "$*"; }

java_home=${JAVA_HOME:-}
if [[ -z $java_home ]]; then
    command -v java >/dev/null || { echo "demo.sh: no JAVA_HOME and no java on PATH" >&2; exit 2; }
    java_home=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.home = //p')
fi
version=$(sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$java_home/release" 2>/dev/null || true)

step "building jp: cargo build --release -p jp-cli"
(cd "$root" && cargo build --release --quiet -p jp-cli)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

if [[ -f $java_home/jmods/java.base.jmod ]]; then
    java_base=$java_home/jmods/java.base.jmod
else
    step "no jmods in $java_home: extracting java.base from lib/modules with jimage"
    "$java_home/bin/jimage" extract --dir "$scratch" --include 'regex:/java\.base/.*' "$java_home/lib/modules"
    java_base=$scratch/java.base
fi

step "jp inspect --class java/lang/Object $java_base    (JDK ${version:-?} at $java_home)"
"$jp" inspect --class java/lang/Object "$java_base"

step "jp inspect --class java/lang/constant/ConstantDesc $java_base"
"$jp" inspect --class java/lang/constant/ConstantDesc "$java_base"

summaries=()
for flags in "" "--deep"; do
    # shellcheck disable=SC2086 # FLAGS is a word list on purpose
    step "jp roundtrip $flags${flags:+ }$java_base"
    start=${EPOCHREALTIME/[.,]/}
    # shellcheck disable=SC2086
    "$jp" roundtrip $flags "$java_base" | tee "$scratch/out"
    tenths=$(((${EPOCHREALTIME/[.,]/} - start) / 100000))
    summaries+=("$(tail -n 1 "$scratch/out")  [java.base ${version:-?}${flags:+, $flags}, $((tenths / 10)).$((tenths % 10))s]")
done

step "summary"
printf '%s\n' "${summaries[@]}"
