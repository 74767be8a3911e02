# Shared by the demos (scripts/demo.sh, scripts/demo-cli.sh).
# shellcheck shell=bash

# hottest_contexts FOLDED PACKAGE: the eight contexts of a folded bytecodes report with the most
# bytecodes of their own, each with its share of the total, frames outermost first. For brevity the
# signatures (`(java.util.List,int):long`) are dropped, and so is the example's PACKAGE prefix.
hottest_contexts() {
    local folded=$1 package=$2 total
    total=$(awk '{ s += $NF } END { print s + 0 }' "$folded")
    echo "(of $total bytecodes in all; self counts, innermost frame last)"
    sed -E "s/\\([^)]*\\):[^; ]*//g; s/${package//./\\.}//g" "$folded" |
        awk -v total="$total" '{ value = $NF; $NF = ""; sub(/ $/, ""); gsub(/;/, " > ")
            printf "%12d  %5.1f%%  %s\n", value, 100 * value / total, $0 }' | sort -k1 -n -r | head -n 8
}
