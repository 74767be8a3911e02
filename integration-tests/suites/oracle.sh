#!/usr/bin/env bash
# Oracle suite: the JVMTI counting oracle (integration-tests/oracle/) reproduces the paper examples
# (JP's Fig. 4, ProfBuilder's Fig. 5), the hand-counted expectations in the test programs, and
# gives identical counts on every run. JP's own profiles are compared against it once the
# profiling scheme exists.
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/../oracle/selfcheck.sh"
