#!/usr/bin/env bash
# Compiler-profile benchmark (compiler-profile.py beside this file; README.md explains it), run after
# installing what it needs and is missing.
#
# usage: integration-tests/bench/compiler-profile.sh   (KOTLIN_VERSION, COMPILER_HEAP, REPORT_TIMEOUT)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../scripts/lib/ensure-tools.sh
source "$root/scripts/lib/ensure-tools.sh"
ensure_tools jdk maven cc python3 time cargo chromium node go || exit 2
exec python3 "$root/integration-tests/bench/compiler-profile.py" "$@"
