#!/usr/bin/env bash
# JP's overhead benchmark (run.py beside this file; README.md explains its options and output), run
# after installing what it needs and is missing.
#
#   bash integration-tests/perf/run.sh [--quick] [h2|lucene|ecj|lang3-tests]...
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../scripts/lib/ensure-tools.sh
source "$root/scripts/lib/ensure-tools.sh"
ensure_tools jdk maven cc python3 cargo || exit 2
exec python3 "$root/integration-tests/perf/run.py" "$@"
