#!/usr/bin/env bash
# Fetches the round-trip corpus: exactly the jars that pom.xml beside this script lists, without
# their transitive dependencies, into ${JP_CORPUS_DIR:-$HOME/.cache/jp/corpus}, and prints that
# directory on stdout (everything else goes to stderr), so callers can write
#     corpus=$(bash integration-tests/corpus/fetch.sh)
#
# Idempotent: when every listed jar is already there, Maven is not started. Jars in the directory
# that the POM no longer lists are removed, so the directory always holds exactly the corpus.
# Maven resolves from its default repository (or the user's settings.xml), nothing else.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pom=$here/pom.xml
dir=${JP_CORPUS_DIR:-$HOME/.cache/jp/corpus}

# The file names that copy-dependencies gives the listed jars: artifactId-version[-classifier].jar.
expected_jars() {
    awk 'BEGIN { RS = "</dependency>" }
         /<dependency>/ {
             a = $0; sub(/.*<artifactId>[ \t\n]*/, "", a); sub(/[ \t\n]*<\/artifactId>.*/, "", a)
             v = $0; sub(/.*<version>[ \t\n]*/, "", v);    sub(/[ \t\n]*<\/version>.*/, "", v)
             c = "";
             if ($0 ~ /<classifier>/) {
                 c = $0; sub(/.*<classifier>[ \t\n]*/, "", c); sub(/[ \t\n]*<\/classifier>.*/, "", c)
                 c = "-" c
             }
             print a "-" v c ".jar"
         }' "$pom"
}

mapfile -t jars < <(expected_jars)
if ((${#jars[@]} == 0)); then
    echo "fetch.sh: no dependencies found in $pom" >&2
    exit 2
fi

missing=()
for jar in "${jars[@]}"; do
    [[ -s $dir/$jar ]] || missing+=("$jar")
done

if ((${#missing[@]} > 0)); then
    echo "fetch.sh: fetching ${#missing[@]} of ${#jars[@]} corpus jars into $dir" >&2
    mkdir -p "$dir"
    # Copy into a scratch directory first, so an interrupted run never leaves a half-written jar
    # under a name that the next run would take as complete.
    scratch=$(mktemp -d "$dir/.fetch.XXXXXX")
    trap 'rm -rf "$scratch"' EXIT
    # (Debian's Maven 3.8 prints bare colour resets even in batch mode; sed drops them.)
    mvn -q -B -f "$pom" dependency:copy-dependencies \
        -DexcludeTransitive=true -DoutputDirectory="$scratch" 2>&1 | sed 's/\x1b\[0m//g' >&2
    for jar in "${missing[@]}"; do
        if [[ ! -s $scratch/$jar ]]; then
            echo "fetch.sh: Maven did not produce $jar (check its coordinates in $pom)" >&2
            exit 1
        fi
        mv -f "$scratch/$jar" "$dir/$jar"
    done
fi

# Drop jars that are no longer listed (an older version after a bump, say).
shopt -s nullglob
for path in "$dir"/*.jar; do
    name=${path##*/}
    keep=0
    for jar in "${jars[@]}"; do
        if [[ $name == "$jar" ]]; then keep=1; break; fi
    done
    if ((keep == 0)); then
        echo "fetch.sh: removing $name (no longer in the corpus)" >&2
        rm -f -- "$path"
    fi
done

echo "$dir"
