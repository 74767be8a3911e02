#!/usr/bin/env bash
# Report benchmark: how long `jp report` takes on a generated profile of many contexts (1,000,000
# by default), for each format, and how large each report is; then how long Chromium takes to
# open the HTML report until its call tree and flame graph are drawn. See README.md beside this file.
#
# usage: integration-tests/bench/report.sh [CONTEXTS] (REPORT_RUNS=N runs per format, median kept)
# Exits 0 when it measured, 1 when a report failed, 2 when it could not run.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
contexts=${1:-1000000}
runs=${REPORT_RUNS:-3}
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp
work=$target/bench/report
die() { echo "report.sh: $*" >&2; exit 2; }

mkdir -p "$work"
echo "report.sh: building jp (cargo build --release -p jp-cli)" >&2
(cd "$root" && cargo build --release --quiet -p jp-cli) || die "cargo build failed"
# Named after the generator's contents too, so that a changed generator makes a new profile.
profile=$work/generated-$contexts-$(sha256sum "$here/generate-profile.py" | cut -c1-12).jpprof
if [[ ! -s $profile ]]; then
    echo "report.sh: generating a profile of $contexts contexts" >&2
    python3 "$here/generate-profile.py" "$contexts" "$profile.tmp" && mv "$profile.tmp" "$profile" ||
        die "could not generate the profile"
fi

seconds() { printf '%s' "$EPOCHREALTIME"; }
printf 'profile: %s contexts, %s MB\n\n' "$contexts" "$(( $(stat -c %s "$profile") / 1000000 ))"
printf '%-12s %10s %10s %12s\n' format "median s" "min s" "size MB"
status=0
for format in folded text html speedscope; do
    times=()
    for ((run = 0; run < runs; run++)); do
        start=$(seconds)
        # The folded report of a million contexts is some 1.3 GB, more than jp report's default limit.
        if ! "$jp" report "$profile" --format "$format" --max-output-size 8G --out "$work/report.$format" 2>"$work/$format.err"; then
            echo "report.sh: jp report --format $format failed:" >&2
            cat "$work/$format.err" >&2
            status=1
            continue 2
        fi
        end=$(seconds)
        times+=("$(python3 -c "print(f'{$end - $start:.3f}')")")
    done
    sorted=($(printf '%s\n' "${times[@]}" | sort -n))
    printf '%-12s %10s %10s %12s\n' "$format" "${sorted[$((runs / 2))]}" "${sorted[0]}" \
        "$(python3 -c "print(f'{$(stat -c %s "$work/report.$format") / 1e6:.1f}')")"
done

# Opening the page: Chromium from Debian, through the reports suite's playwright-core.
if [[ -s $work/report.html ]] && command -v chromium >/dev/null && [[ -d $root/integration-tests/reports/node_modules ]]; then
    echo
    CHROMIUM=$(command -v chromium) node "$here/open-report.mjs" "$work/report.html" || status=1
else
    echo "report.sh: not opening the HTML report (needs chromium and integration-tests/reports/node_modules)" >&2
fi
exit "$status"
