#!/usr/bin/env bash
# Entry-cost benchmark (entry-cost.py beside this file; README.md explains it), run after installing
# what it needs and is missing.
#
# usage: integration-tests/bench/entry-cost.sh   (ENTRY_RUNS, ENTRY_RUNTIMES, ENTRY_BBA)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../scripts/lib/ensure-tools.sh
source "$root/scripts/lib/ensure-tools.sh"
ensure_tools jdk maven python3 cargo || exit 2
exec python3 "$root/integration-tests/bench/entry-cost.py" "$@"
