#!/usr/bin/env bash
# Report benchmark (report.py beside this file; README.md explains it), run after installing what it
# needs and is missing. Opening the HTML report also needs Chromium and the reports suite's
# node_modules; without them that step is skipped.
#
# usage: integration-tests/bench/report.sh [CONTEXTS]   (REPORT_RUNS)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../scripts/lib/ensure-tools.sh
source "$root/scripts/lib/ensure-tools.sh"
ensure_tools cc python3 cargo || exit 2
exec python3 "$root/integration-tests/bench/report.py" "$@"
