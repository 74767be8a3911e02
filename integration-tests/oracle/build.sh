#!/usr/bin/env bash
# Builds the counting oracle (a JVMTI agent) and prints the path of the shared library.
#   bash integration-tests/oracle/build.sh [OUTDIR]     (default: target/oracle under the repository)
# Uses $JAVA_HOME for the JVMTI headers, or the JDK 17 at /usr/lib/jvm/java-17-openjdk-amd64.
# The library is rebuilt only when jp_oracle.c is newer than it.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/target/oracle}
jdk=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
if [[ ! -f $jdk/include/jvmti.h ]]; then
    echo "oracle: no JVMTI headers in $jdk/include (set JAVA_HOME to a JDK)" >&2
    exit 2
fi
mkdir -p "$out"
lib=$out/libjp_oracle.so
if [[ ! -f $lib || $here/jp_oracle.c -nt $lib ]]; then
    ${CC:-gcc} -O2 -g -Wall -Wextra -Werror -std=gnu11 -shared -fPIC \
        -I"$jdk/include" -I"$jdk/include/linux" \
        -o "$lib.tmp" "$here/jp_oracle.c" -lpthread
    mv "$lib.tmp" "$lib"
fi
echo "$lib"
