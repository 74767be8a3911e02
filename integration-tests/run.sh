#!/usr/bin/env bash
# All of JP's tests, in order, as suites. Each suite is one command; its output is shown as it runs
# and it counts as passed when the command exits 0:
#   fmt         cargo fmt --all -- --check
#   clippy      cargo clippy --workspace --all-targets -- -D warnings, and on the class-file
#               benchmark's own workspace, which nothing else builds
#   cargo-test  cargo test --workspace
#   jptest      the unit tests of the suites' Python helpers (integration-tests/lib/jptest) and of
#               the overhead benchmark's package (integration-tests/perf/overhead)
#   maven       mvn -q -B verify (the root reactor)
#   roundtrip   integration-tests/roundtrip.py (run by python3)
#   <name>      integration-tests/suites/<name>.sh (run by bash) or <name>.py (run by python3),
#               every one there, in name order
# A failing suite does not stop the others. The last line is `N passed, N failed` (suites), and the
# exit status is 1 when any suite failed.
#
# Arguments, if any, are suite names: only those run (`bash integration-tests/run.sh fmt clippy`).
#
# First it installs what the selected suites need and is missing (scripts/lib/ensure-tools.sh): a
# JDK 17 with jmods, Maven, gcc, git and Python 3 for all; rustfmt and clippy for fmt and clippy,
# Gradle for gradle, Chromium, Node/npm and Go for reports, and for cross the cross-build tools (rustup
# targets, cargo-zigbuild and Zig from PyPI), qemu-user with Debian's arm64 C library, and Wine. A
# Rust toolchain (rustup) must be there already.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2

# A bare environment (CI's may have no locale at all) makes JDK 17 read and write files as ASCII.
if [[ -z ${LC_ALL:-} && -z ${LC_CTYPE:-} && -z ${LANG:-} ]]; then
    export LANG=C.UTF-8
fi

names=(fmt clippy cargo-test jptest maven roundtrip)
commands=(
    "cargo fmt --all -- --check"
    "cargo clippy --workspace --all-targets -- -D warnings && CARGO_TARGET_DIR=target/bench cargo clippy --manifest-path integration-tests/bench/classfile-throughput/Cargo.toml --all-targets -- -D warnings"
    "cargo test --workspace"
    "python3 -m unittest discover -s integration-tests/lib/tests -t integration-tests/lib && python3 -m unittest discover -s integration-tests/perf/tests -t integration-tests/perf"
    # Debian's Maven 3.8 prints bare colour resets even in batch mode; they would glue the next
    # line onto the previous one, so they are dropped.
    "mvn -q -B verify 2>&1 | sed 's/\\x1b\\[0m//g'"
    "python3 integration-tests/roundtrip.py"
)
shopt -s nullglob
suites=(integration-tests/suites/*.sh integration-tests/suites/*.py)
while IFS= read -r suite; do
    name=${suite##*/}
    names+=("${name%.*}")
    case $suite in
        *.sh) commands+=("bash $suite") ;;
        *.py) commands+=("python3 $suite") ;;
    esac
done < <(printf '%s\n' "${suites[@]}" | LC_ALL=C sort)

selected() {
    local want
    (($# == 1)) && return 0
    for want in "${@:2}"; do [[ $want == "$1" ]] && return 0; done
    return 1
}

for want in "$@"; do
    known=0
    for name in "${names[@]}"; do [[ $name == "$want" ]] && known=1; done
    if ((known == 0)); then
        echo "run.sh: unknown suite '$want' (suites: ${names[*]})" >&2
        exit 2
    fi
done

# shellcheck source=../scripts/lib/ensure-tools.sh
source "$root/scripts/lib/ensure-tools.sh"
tools=(jdk maven cc git python3 cargo)
for name in "${names[@]}"; do
    selected "$name" "$@" || continue
    case $name in
        fmt) tools+=(rustfmt) ;;
        clippy) tools+=(clippy) ;;
        gradle) tools+=(gradle) ;;
        reports) tools+=(chromium node go) ;;
        cross) tools+=(cross qemu-arm64 wine) ;;
    esac
done
ensure_tools "${tools[@]}" || exit 2

passed=0
failed=0
summary=()
start_all=$SECONDS
for i in "${!names[@]}"; do
    name=${names[$i]}
    selected "$name" "$@" || continue
    echo "=== $name: ${commands[$i]}"
    start=$SECONDS
    if bash -o pipefail -c "${commands[$i]}"; then
        result=PASS
        passed=$((passed + 1))
    else
        result=FAIL
        failed=$((failed + 1))
    fi
    line="$result $name ($((SECONDS - start))s)"
    echo "=== $line"
    summary+=("$line")
done

echo
echo "=== suites ($((SECONDS - start_all))s in all)"
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
((failed == 0))
