#!/usr/bin/env bash
# Runs a program, uninstrumented, under the counting oracle.
#   bash integration-tests/oracle/run-oracle.sh <program-class> <classes-dir> <outprefix> [program args...]
# Writes <outprefix>.calls.folded and <outprefix>.bytecodes.folded; the program's stdout and stderr
# pass through. Environment:
#   ORACLE_INCLUDE  class-name prefixes to select, ';'-separated (default: the program's package,
#                   e.g. "demo." for demo.Fig4)
#   ORACLE_OPTIONS  more agent options, ','-separated (e.g. "metrics=calls", "init=off", "verbose")
#   JAVA            the java launcher (default: $JAVA_HOME/bin/java, else java on the PATH)
#   ORACLE_LIB      a prebuilt libjp_oracle.so (default: built by build.sh)
# Exit status: the program's, or 3 when the oracle reported warnings (its counts are then not
# trustworthy).
set -euo pipefail

if (($# < 3)); then
    echo "usage: $0 <program-class> <classes-dir> <outprefix> [program args...]" >&2
    exit 2
fi
main=$1 classes=$2 out=$3
shift 3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lib=${ORACLE_LIB:-$(bash "$here/build.sh")}
if [[ -n ${JAVA:-} ]]; then
    java=$JAVA
elif [[ -n ${JAVA_HOME:-} ]]; then
    java=$JAVA_HOME/bin/java
else
    java=java
fi
if [[ -n ${ORACLE_INCLUDE:-} ]]; then
    include=$ORACLE_INCLUDE
elif [[ $main == *.* ]]; then
    include=${main%.*}.
else
    echo "oracle: $main is in the unnamed package; set ORACLE_INCLUDE" >&2
    exit 2
fi
mkdir -p "$(dirname "$out")"
rm -f "$out.calls.folded" "$out.bytecodes.folded"
options="include=$include,out=$out${ORACLE_OPTIONS:+,$ORACLE_OPTIONS}"
errlog=$(mktemp)
trap 'rm -f "$errlog"' EXIT
status=0
# -XX:-RewriteFrequentPairs: see fact 5 in jp_oracle.c.
"$java" -XX:-RewriteFrequentPairs "-agentpath:$lib=$options" -cp "$classes" "$main" "$@" 2>"$errlog" || status=$?
cat "$errlog" >&2
if grep -q '^jp-oracle: warning' "$errlog"; then
    ((status == 0)) && status=3
fi
exit "$status"
