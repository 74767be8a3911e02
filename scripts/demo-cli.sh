#!/usr/bin/env bash
# JP's CLI demo: profiles the example application of examples/cli-demo end to end with the `jp` CLI
# alone, no build tool (scripts/demo.sh, the main demo, goes through the build plugins).
#   1. builds `jp` (cargo, release) and the runtime jar (Maven);
#   2. compiles the example (javac), instruments its classes with `jp instrument --bba precise`;
#   3. runs the instrumented application with the runtime jar, which writes a profile at exit;
#   4. renders the profile with `jp report` (folded stacks, calls and bytecodes) and prints the
#      hottest contexts and where the files are.
# Output goes to target/demo-cli (the profile, the reports, the instrumented classes).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=lib/hottest.sh
source "$root/scripts/lib/hottest.sh"
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp
out=$target/demo-cli
example=$root/examples/cli-demo
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
javac=${JAVA_HOME:+$JAVA_HOME/bin/}javac

step() { printf '\n== %s\n' "$*"; }

step "building jp (cargo build --release -p jp-cli) and the runtime jar (mvn package -pl java-runtime)"
(cd "$root" && cargo build --release --quiet -p jp-cli)
mvn -q -f "$root/pom.xml" -pl java-runtime -am package -DskipTests
runtime=$(ls "$root"/java-runtime/target/jp-runtime-*.jar | grep -v -e sources -e javadoc | head -n 1)

rm -rf "$out"
mkdir -p "$out/classes"
step "compiling examples/cli-demo"
"$javac" --release 17 -d "$out/classes" $(find "$example/src" -name '*.java')

step "jp instrument $out/classes --out $out/instrumented --bba precise"
"$jp" instrument "$out/classes" --out "$out/instrumented" --bba precise

step "running the instrumented application: java -cp instrumented:$(basename "$runtime") -Djp.output=... org.example.wordstats.Main"
"$java" -cp "$out/instrumented:$runtime" -Djp.output="$out/wordstats.jpprof" org.example.wordstats.Main

step "jp report $out/wordstats.jpprof --format folded --metric calls|bytecodes"
for metric in calls bytecodes; do
    "$jp" report "$out/wordstats.jpprof" --format folded --metric "$metric" --out "$out/wordstats.$metric.folded"
done

step "the hottest contexts by bytecodes executed"
hottest_contexts "$out/wordstats.bytecodes.folded" org.example.wordstats.

step "files"
echo "profile:             $out/wordstats.jpprof"
echo "report (calls):      $out/wordstats.calls.folded"
echo "report (bytecodes):  $out/wordstats.bytecodes.folded"
