#!/usr/bin/env bash
# JP's release artifacts, for every platform, into target/dist/ (docs/release.md):
#   jp-engine-<version>.jar with the JNI library of every platform, the `jp` CLI archives
#   jp-<version>-<platform>.tar.gz / .zip, SHA256SUMS and BUILDINFO.
# Usage: bash scripts/release.sh [--check-reproducible]
#   --check-reproducible  then builds again from a clone at another path and compares every file.
# Installs what it needs and is missing first (scripts/lib/ensure-tools.sh: a JDK, Maven, gcc and
# the cross-build tools); a Rust toolchain (rustup) must be there already. Times are the commit's
# (SOURCE_DATE_EPOCH, unless set).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=lib/ensure-tools.sh
source "$root/scripts/lib/ensure-tools.sh"
ensure_tools jdk maven cc git cargo cross
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
version=$(awk -F'[<>]' '/<version>/ { print $3; exit }' "$root/pom.xml")
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct)}
natives=$target/natives
out=$target/dist

cd "$root"
# Every jar is made anew (a jar Maven finds up to date would keep the time stamps it was made
# with). Not `mvn clean`: the parent POM's target directory is cargo's.
cargo build --release --quiet -p jp-dist
dist=$target/release/jp-dist
platforms=()
while read -r platform _rust_target; do platforms+=("$platform"); done < <("$dist" released)
"$dist" natives --out "$natives" "${platforms[@]/#/--cli=}"
mvn -q -B package -DskipTests -Dmaven.jar.forceCreation -pl engine/java -am -Djp.natives="$natives" \
    -Dproject.build.outputTimestamp="$SOURCE_DATE_EPOCH" 2>&1 | sed 's/\x1b\[0m//g'

rm -rf "$out"
mkdir -p "$out"
cp "engine/java/target/jp-engine-$version.jar" "$out/"
"$dist" check-jar "$out/jp-engine-$version.jar" --require "$(IFS=,; echo "${platforms[*]}")" --forbid "$root"
{
    rustc -V
    echo "zig $("$JP_CROSS_BIN/python3" -m ziglang version)"
    "$JP_CROSS_BIN/cargo-zigbuild" --version
    echo "SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH"
} >"$out/BUILDINFO"
binaries=()
for platform in "${platforms[@]}"; do
    binaries+=("$platform=$(echo "$natives/cli/$platform"/jp*)")
done
"$dist" pack --version "$version" --epoch "$SOURCE_DATE_EPOCH" --out "$out" \
    --include LICENSE --include README.md "${binaries[@]}"
(cd "$out" && sha256sum -c --quiet SHA256SUMS)
ls -l "$out"

if [[ ${1:-} == --check-reproducible ]]; then
    again=$(mktemp -d "${TMPDIR:-/tmp}/jp-release.XXXXXX")
    git clone -q "$root" "$again/jp"
    (cd "$again/jp" && git checkout -q "$(git -C "$root" rev-parse HEAD)" &&
        CARGO_TARGET_DIR=$again/target bash scripts/release.sh)
    if diff -r "$out" "$again/target/dist"; then
        echo "release.sh: reproducible: a build from $again/jp gave the same bytes"
        rm -rf "$again"
    else
        echo "release.sh: NOT reproducible: $out and $again/target/dist differ" >&2
        exit 1
    fi
fi
