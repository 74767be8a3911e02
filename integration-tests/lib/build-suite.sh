# The PASS/FAIL/SKIP lines of the suites that were in bash, and bash functions over
# integration-tests/lib/jptest/plugin_checks.py, which holds the checks and says what each one
# checks. No suite sources it any more: the build-plugin suites are in Python (suites/gradle.py,
# suites/gradle8.py, suites/maven-plugin.py). Source it after setting `suite` (the suite's name)
# and `work` (its scratch directory), and with `jp` naming the CLI binary and `version` JP's
# version. It sets `failed=0`.
# shellcheck shell=bash

_build_suite_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
failed=0
die() { echo "$suite.sh: $*" >&2; exit 2; }
pass() { echo "PASS $suite $*"; }
fail() { echo "FAIL $suite $*"; failed=1; }
skip() { echo "SKIP $suite $*"; }
# Shows the end of a log after a FAIL line.
show() { sed 's/^/    | /' "$1" | tail -n "${2:-25}"; }
# A directory's files and their hashes, for comparisons.
digest() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

_plugin_checks() {
    PYTHONPATH=$_build_suite_lib python3 -m jptest.plugin_checks "$suite" "$jp" "$work" "${version:-}" "$@"
}
# Values (plugin_checks.py says how each is found):
# no_crash DIR...: whether no JVM crashed under the directories (no hs_err_pid* file).
no_crash() { _plugin_checks no-crash "$@"; }
# total_calls PROFILE...: the calls of all contexts of the profiles together.
total_calls() { _plugin_checks total-calls "$@"; }
# complete_page FILE: whether FILE is a whole HTML page, from its doctype to its closing tag.
complete_page() { _plugin_checks complete-page "$@"; }
# testng_version: the TestNG of the TestNG project (integration-tests/maven/testng-demo/pom.xml).
testng_version() { _plugin_checks testng-version; }

# Checks, each printing its PASS/FAIL lines (plugin_checks.py says what each checks):
# check_gate_diff TASK LOG NAMED PAGE BASE_DIR RUN_DIR
check_gate_diff() { _plugin_checks gate-diff "$@" || failed=1; }
# check_testng WHERE FIRST-RUN SECOND-RUN
check_testng() { _plugin_checks testng "$@" || failed=1; }
# check_demo_profiles WHERE PROFILE...
check_demo_profiles() { _plugin_checks demo-profiles "$@" || failed=1; }
# check_ide_settings GOAL DIR NAME IDE-FILE PROFILES-DIR CLASSES-DIR ORIGINAL-CLASSES
check_ide_settings() { _plugin_checks ide-settings "$@" || failed=1; }
# check_params_contexts FOLDED-CALLS FOLDED-BYTECODES
check_params_contexts() { _plugin_checks params-contexts "$@" || failed=1; }
# check_demo_tests FOLDED REPORTS PROFILE...
check_demo_tests() { _plugin_checks demo-tests "$@" || failed=1; }
