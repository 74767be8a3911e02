#!/usr/bin/env bash
# Gradle instrument benchmark (gradle-instrument.py beside this file; README.md explains it), run
# after installing what it needs and is missing.
#
# usage: integration-tests/bench/gradle-instrument.sh [CLASSES]   (BENCH_RUNS, BENCH_SEED, JACOCO_VERSION)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../scripts/lib/ensure-tools.sh
source "$root/scripts/lib/ensure-tools.sh"
ensure_tools jdk maven gradle cc python3 time cargo || exit 2
exec python3 "$root/integration-tests/bench/gradle-instrument.py" "$@"
