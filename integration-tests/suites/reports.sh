#!/usr/bin/env bash
# Reports suite: `jp report`'s HTML page in a real headless browser (its Tests view on a profile
# of a test run, its Source view on a profile with per-line counts, its thread switch on a
# profile of thread groups and its sampled metrics from `--samples` included), its speedscope files against speedscope's published schema and in the
# speedscope app itself, its folded files through speedscope's importer of collapsed stacks, and
# its pprof files read by pprof itself (`go tool pprof`); and `jp diff`'s HTML page (its differential icicle graph, hover, zoom and ranked tables) in the
# same browser.
#
# Every `integration-tests/reports/*.test.mjs` runs under Node with these environment variables:
#   JP          the jp binary (release build)
#   CHROMIUM    the browser (Debian's chromium), driven by playwright-core
#   GO          the go command, whose `go tool pprof` reads the pprof files
#   JP_PROFILES the directory of small test profiles (engine/cli/tests/testdata/profiles)
#   JP_WORK     a fresh directory for the test's files (kept when the suite fails)
# and prints PASS/FAIL lines itself, exiting non-zero when a check failed. Screenshots are left in
# $JP_WORK. The npm packages are pinned by integration-tests/reports/package-lock.json.
# Exits 1 if a check failed, 2 if the suite could not run.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$root/integration-tests/reports
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
die() { echo "reports.sh: $*" >&2; exit 2; }

command -v node >/dev/null || die "no node on PATH"
CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
[[ -x $CHROMIUM ]] || die "no chromium on PATH (Debian's package chromium)"
GO=${GO:-$(command -v go || true)}
[[ -x $GO ]] || die "no go on PATH (Debian's package golang-go)"
(cd "$root" && cargo build --release --quiet -p jp-cli) || die "cargo build failed"
# npm's own node_modules/.package-lock.json is not a copy of package-lock.json, so the lock that
# was installed is kept beside it to tell whether to install again.
installed=$here/node_modules/.jp-installed-package-lock.json
if ! cmp -s "$here/package-lock.json" "$installed" 2>/dev/null; then
    (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed"
    cp "$here/package-lock.json" "$installed"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/jp-reports.XXXXXX")
status=0
shopt -s nullglob
for test in "$here"/*.test.mjs; do
    name=${test##*/}
    mkdir -p "$work/${name%.test.mjs}"
    JP=$target/release/jp CHROMIUM=$CHROMIUM GO=$GO JP_PROFILES=$root/engine/cli/tests/testdata/profiles \
        JP_WORK=$work/${name%.test.mjs} node "$test" || status=1
done
if ((status == 0)); then rm -rf "$work"; else echo "reports.sh: work files kept in $work"; fi
exit "$status"
