#!/usr/bin/env bash
# JP's demo: profiles the example projects through the build tools' own command lines, with JP's
# build plugins, as a user would.
#   1. builds the engine's JNI library for every platform JP ships (`jp-dist natives`, cross-built
#      with cargo-zigbuild; docs/release.md), JP's Java artifacts (Maven) with the release jar of
#      the engine, which holds them all, and `jp`, and puts the artifacts into a throwaway local
#      Maven repository (target/demo/m2), laid out as `mvn install` would, so that nothing is
#      installed into ~/.m2;
#   2. Gradle: runs `gradle jpProfileTest jpReport` on a copy of examples/gradle-demo: the tests run
#      on instrumented classes, each test JVM writes a profile, jpReport renders them;
#   3. Maven: runs `mvn verify` on a copy of examples/maven-demo: jp:instrument, the tests on
#      instrumented classes, the jar of the original classes, and jp:report;
#   4. prints, for each, where the reports are and the hottest calling contexts by bytecodes executed.
# Each build tool has its own section below; each ends by calling `summary` with its profiles.
#
# First it installs what it needs and is missing (scripts/lib/ensure-tools.sh): a JDK 17 with jmods,
# Maven, Gradle (Debian's 4.4.1 works), gcc (cargo's linker), and the cross-build tools (rustup
# targets, cargo-zigbuild and Zig from PyPI); a Rust toolchain (rustup) must be there already. The
# cross builds are cached under ${JP_CACHE_DIR:-~/.cache/jp}/cross: the first run takes about
# twenty minutes longer. junit comes from Maven Central the first time and is kept in
# ${JP_CACHE_DIR:-~/.cache/jp}/gradle/home (shared with the gradle suite), after which the demo
# runs offline. The plain CLI demo, without a build tool, is scripts/demo-cli.sh.
set -euo pipefail

started=$SECONDS
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=lib/hottest.sh
source "$root/scripts/lib/hottest.sh"
# shellcheck source=lib/jp-repo.sh
source "$root/scripts/lib/jp-repo.sh"
# shellcheck source=lib/ensure-tools.sh
source "$root/scripts/lib/ensure-tools.sh"
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp
out=$target/demo
repo=$out/m2
natives=$target/natives
version=$(awk -F'[<>]' '/<version>/ { print $3; exit }' "$root/pom.xml")

step() { printf '\n== %s\n' "$*"; }
die() { echo "demo.sh: $*" >&2; exit 1; }

# The hottest contexts of some profiles by bytecodes (self counts, innermost frame last), and the
# reports' paths. Usage: summary TITLE PACKAGE-PREFIX-TO-DROP REPORT-DIR PROFILE...
summary() {
    local title=$1 package=$2 reports=$3
    shift 3
    local folded=$out/$title.bytecodes.folded
    "$jp" report "$@" --format folded --metric bytecodes --out "$folded"
    step "$title: the hottest contexts by bytecodes executed"
    hottest_contexts "$folded" "$package"
    step "$title: reports"
    echo "HTML report:  $reports/index.html"
    echo "text report:  $reports/report.txt"
    echo "profiles:     $*"
}

# --- 1. JP's artifacts ----------------------------------------------------------------------------
ensure_tools jdk maven gradle cc cargo cross || die "cannot install the tools it needs"
[[ -n $version ]] || die "no version in $root/pom.xml"
step "building JP's engine for every platform: jp-dist natives (cargo-zigbuild, cached)"
(cd "$root" && cargo build --release --quiet -p jp-cli -p jp-dist)
"$target/release/jp-dist" natives --workspace "$root" --out "$natives"
step "building JP: mvn package (runtime, the engine's release jar, Gradle plugin)"
mvn -q -B -f "$root/pom.xml" package -DskipTests -pl gradle-plugin,gradle-plugin/marker -am \
    -Djp.natives="$natives" 2>&1 | sed "s/\x1b\[0m//g"

rm -rf "$out"
mkdir -p "$out"
install_jp "$repo" "$version" parent runtime engine gradle-plugin gradle-marker
echo "JP $version in $repo"

# --- 2. Gradle: examples/gradle-demo ---------------------------------------------------------------
gradle_demo() {
    local project=$out/gradle-demo
    export GRADLE_USER_HOME=${JP_CACHE_DIR:-$HOME/.cache/jp}/gradle/home
    mkdir -p "$GRADLE_USER_HOME"
    cp -r "$root/examples/gradle-demo" "$project"
    rm -rf "$project/build" "$project/.gradle"
    sed -i "s/jp-gradle-plugin:[^']*'/jp-gradle-plugin:$version'/" "$project/build.gradle"
    local offline=()
    [[ -d $GRADLE_USER_HOME/caches/modules-2/files-2.1/junit ]] && offline=(--offline)
    step "Gradle: cd $project && gradle jpProfileTest jpReport ($(gradle --version 2>/dev/null | awk '/^Gradle / { print $2; exit }'))"
    (cd "$project" && gradle --no-daemon --console=plain "${offline[@]}" -Dmaven.repo.local="$repo" \
        jpProfileTest jpReport)
    local profiles=("$project"/build/jp/profiles/jpProfileTest/run-*/*.jpprof)
    [[ -f ${profiles[0]} ]] || die "gradle jpProfileTest wrote no profile"
    [[ -s $project/build/reports/jp/index.html ]] || die "gradle jpReport wrote no report"
    summary gradle-demo org.example.leaderboard. "$project/build/reports/jp" "${profiles[@]}"
}
gradle_demo

# --- 3. Maven: examples/maven-demo ----------------------------------------------------------------
# `mvn verify` on a copy of examples/maven-demo: jp:instrument (process-classes) instruments
# target/classes into target/jp/classes, Surefire runs the tests on those with JP's runtime, the jar
# is packaged from the original classes, and jp:report (verify) renders target/site/jp/. Maven's
# own plugins come from ~/.m2/repository, read as a file:// repository, into the throwaway
# repository (and from Maven Central when missing there), so nothing is installed into ~/.m2.
maven_demo() {
    local project=$out/maven-demo settings=$out/maven-settings.xml
    step "Maven: mvn package -pl maven-plugin -am (the Maven plugin), installed into $repo"
    mvn -q -B -f "$root/pom.xml" package -DskipTests -pl maven-plugin -am -Djp.natives="$natives" 2>&1 |
        sed 's/\x1b\[0m//g'
    install_jp "$repo" "$version" engine maven-plugin
    write_maven_settings "$settings" "$HOME/.m2/repository"
    cp -r "$root/examples/maven-demo" "$project"
    rm -rf "$project/target"
    sed -i "s|<jp.version>[^<]*</jp.version>|<jp.version>$version</jp.version>|" "$project/pom.xml"
    step "Maven: cd $project && mvn verify ($(mvn -v 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' | awk '/^Apache Maven/ { print $3; exit }'))"
    # Debian's Maven prints bare colour resets even in batch mode; they are dropped.
    (cd "$project" && mvn -B -ntp -s "$settings" -Dmaven.repo.local="$repo" verify) 2>&1 | sed 's/\x1b\[0m//g'
    local profiles=("$project"/target/jp/profiles/run-*/*.jpprof)
    [[ -f ${profiles[0]} ]] || die "mvn verify wrote no profile"
    [[ -s $project/target/site/jp/index.html ]] || die "jp:report wrote no report"
    echo "packaged jar: $project/target/maven-demo-1.0.0.jar (the original classes)"
    summary maven-demo org.example.leaderboard. "$project/target/site/jp" "${profiles[@]}"
}
maven_demo

step "done in $((SECONDS - started)) s (outputs under $out)"
