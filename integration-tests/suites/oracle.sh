#!/usr/bin/env bash
# Oracle suite: the JVMTI counting oracle (integration-tests/oracle/) reproduces the paper examples
# (JP's Fig. 4, ProfBuilder's Fig. 5), the hand-counted expectations in the test programs, and
# gives identical counts on every run; then JP's own profiles of the same programs, instrumented
# with --bba precise, equal the oracle's context for context (and with --bba default, never lower).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../oracle" && pwd)
status=0
bash "$here/selfcheck.sh" || status=1
bash "$here/compare-jp.sh" || status=1
exit "$status"
