#!/usr/bin/env bash
# The maven-plugin suite: the plugin jp-maven-plugin (maven-plugin/, docs/maven.md) in real builds, with the
# `mvn` on PATH (Debian's 3.8.7 here).
#
#   1. builds the plugin and the engine with Maven (and `jp` with cargo, to read profiles) and puts
#      JP's artifacts into a throwaway local Maven repository, as `mvn install` lays them out;
#      other artifacts come from the user's local repository, read as a file:// repository, and
#      only what is missing there from Maven Central; the builds after the first run offline (-o);
#   2. the two demos' sources are equal copies (no links); a plain copy (cp -r) of
#      examples/maven-demo: `mvn verify` passes its tests on instrumented classes, the profile's
#      hottest context is the quadratic sort, jp:report writes the report, and the packaged jar
#      holds the compiler's classes, byte for byte; two builds at once in one project each write a
#      run of profiles of their own and report it alone;
#   2c. per-test contexts: in the demo's profiles every test is a top-level context, run once, with
#      its set-up inside; three builds give identical per-test totals; in a JUnit 5 project
#      (integration-tests/maven/params-demo) a parameterized test's invocations are told apart; in a
#      TestNG project (integration-tests/maven/testng-demo) each test method invocation has its
#      context with its @BeforeMethod, a data provider's rows are told apart, @BeforeClass counts
#      under the class, and two runs give identical per-test totals;
#   2d. the site report: `mvn site` with the plugin in <reporting> (maven-site-plugin 3.12.1, on
#      Doxia 1, and 3.21.0, on Doxia 2) lists the JP report in project-reports.html, linking
#      jp/index.html, which is there; with no profiles there is no link;
#   2e. a one-off run: on a copy of the demo whose POM names nothing of JP's,
#      `mvn org.jpprof:jp-maven-plugin:<version>:profile package` profiles the tests with the calls
#      and bytecodes of the configured demo's run, and the jar keeps the compiler's classes;
#   3. jp:ide: the printed class path runs the application instrumented; the IntelliJ IDEA and
#      Eclipse run configurations in .run/ parse, and java with exactly the class path and JVM
#      options of each application configuration runs it instrumented; -Djp.ideFiles=false
#      writes none;
#   4. incremental work: a second `mvn jp:instrument` rewrites nothing; an edited class is the only
#      one rewritten and the output equals a clean build's byte for byte; a deleted class loses
#      its output; -Djp.skip skips with a message and the tests run on the compiler's classes;
#   5. a generated multi-module reactor (app depending on core) built with `mvn -T 2 verify
#      jp:report`: each module profiled on its own instrumented classes, one report of both; the
#      same with one jpDirectory for both modules and -T 4: refused, naming the module that has it;
#   5b. integration-tests/maven/reactor-demo (app's test calls core): under `mvn test jp:report` and
#      `mvn verify jp:report`, app's tests run core's classes instrumented (from core/target/classes,
#      then from core's jar), so app's report has core's Fib.fib with the counts of core's report;
#      core's jar keeps the compiler's classes; -Djp.reactorDependencies=false switches it off;
#      the one-off jp:profile on a copy without JP in its POMs gives app the same counts;
#   6. two builds in a row in one JVM (Maven embedded twice, integration-tests/maven/EmbeddedTwice.java),
#      the second loading the plugin, and the engine's library, in a new class loader;
#   6b. the regression gate: jp:baseline writes jp-baseline.txt, byte-identical over two clean
#      runs; jp:check passes on the same code, fails naming Leaderboard.rank with its numbers once
#      it does more work, and names the diff report of the profiles jp:baseline kept against the
#      run (or, without them, says how to get one); passes with a tolerance for it in the POM and
#      once reverted; a baseline of other settings is refused and a missing one explained;
#   7. bad input: sources without classes, a wrong agent or granularity, a corrupt class or
#      jp.toml fail jp:instrument, and a corrupt profile jp:report, with a message naming the
#      directory, setting or file, and no JVM crashes (no hs_err file); empty items in
#      -Djp.includes are left out.
#
# Prints PASS/FAIL/SKIP lines; exits 1 if a check failed, 2 if the suite could not run. The work
# directory is kept when a check fails.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp
suite=maven-plugin
# shellcheck source=../lib/build-suite.sh
source "$root/integration-tests/lib/build-suite.sh"
# shellcheck source=../../scripts/lib/jp-repo.sh
source "$root/scripts/lib/jp-repo.sh"

command -v mvn >/dev/null || die "no mvn on PATH"

version=$(awk -F'[<>]' '/<version>/ { print $3; exit }' "$root/pom.xml")
[[ -n $version ]] || die "no version in $root/pom.xml"
work=$(mktemp -d "${TMPDIR:-/tmp}/jp-maven.XXXXXX")
repo=$work/m2
user_repo=${JP_MAVEN_USER_REPO:-$HOME/.m2/repository}

cleanup() {
    if ((failed == 0)); then rm -rf "$work"; else echo "maven-plugin.sh: work files kept in $work"; fi
}
trap cleanup EXIT

# --- 1. build and install -------------------------------------------------------------------------
(cd "$root" && cargo build --release --quiet -p jp-cli) || die "cargo build -p jp-cli failed"
mvn -q -B -f "$root/pom.xml" package -DskipTests -pl maven-plugin -am \
    >"$work/mvn.log" 2>&1 || { show "$work/mvn.log" 40; die "mvn package failed"; }

install_jp "$repo" "$version" parent engine maven-plugin || die "cannot install into $repo"
pass "install: jp-engine and jp-maven-plugin $version in a throwaway repository"

write_maven_settings "$work/settings.xml" "$user_repo"

# mvn_run NAME DIR ARGS...: a build (batch mode, offline once the repository is filled), its log in $work/NAME.log.
online=1
mvn_run() {
    local name=$1 dir=$2
    shift 2
    local offline=()
    ((online)) || offline=(-o)
    (cd "$dir" && mvn -B -s "$work/settings.xml" "${offline[@]}" -Dmaven.repo.local="$repo" \
        -Djp.engine.cacheDir="$work/engine" -Dstyle.color=never "$@") 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$work/$name.log"
    return "${PIPESTATUS[0]}"
}
# The line jp:instrument logs: `jp: target/classes -> target/jp/classes: N rewritten, N reused, ...`.
instrumented() { grep -m1 -E '\] jp: target/classes -> ' "$work/$1.log" | sed 's/.*\] jp: //'; }

# A copy of a project with this JP's version, and without jp:report where the engine has none.
copy_project() { # FROM TO
    cp -r "$1" "$2" && rm -rf "$2/target" &&
        find "$2" -name pom.xml -exec sed -i "s|<jp.version>[^<]*</jp.version>|<jp.version>$version</jp.version>|" {} +
}

# --- 2. the demo ----------------------------------------------------------------------------------
# The two demos profile the same code, each from a copy of its own (a user copies an example).
if diff -r "$root/examples/gradle-demo/src" "$root/examples/maven-demo/src" >"$work/examples.log" &&
    [[ -z $(find "$root/examples" -type l) ]]; then
    pass "examples: no links; maven-demo/src equals gradle-demo/src"
else
    fail "examples: no links; maven-demo/src equals gradle-demo/src"; show "$work/examples.log"
fi
demo=$work/demo
copy_project "$root/examples/maven-demo" "$demo"
if mvn_run demo "$demo" verify; then
    pass "demo: mvn verify on a plain copy (cp -r) of examples/maven-demo ($(mvn -v 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' | awk '/^Apache Maven/ { print $3; exit }'))"
else
    fail "demo: mvn verify on a plain copy (cp -r) of examples/maven-demo"; show "$work/demo.log" 40
fi
# The JUnit 5 project of the per-test checks (2c), built while Maven may still fetch what it needs.
params=$work/params
copy_project "$root/integration-tests/maven/params-demo" "$params"
mvn_run params "$params" verify
params_status=$?
# The TestNG project of the per-test checks (2c), likewise.
testng=$work/testng
copy_project "$root/integration-tests/maven/testng-demo" "$testng"
mvn_run testng "$testng" verify
testng_status=$?
# jp:site-report in mvn site (2d): copies of the demo with its profiles, built while Maven fetches
# the site plugins (Doxia 1 and Doxia 2 ones).
site_copy() { # VERSION DIR: a copy of the tested demo, its profiles kept, the plugin in <reporting>
    cp -r "$demo" "$2" &&
        sed -i "0,/<plugins>/s||<plugins><plugin><artifactId>maven-site-plugin</artifactId><version>$1</version></plugin>|" "$2/pom.xml" &&
        sed -i 's|</build>|</build><reporting><excludeDefaults>true</excludeDefaults><plugins><plugin><groupId>org.jpprof</groupId><artifactId>jp-maven-plugin</artifactId><version>${jp.version}</version></plugin></plugins></reporting>|' "$2/pom.xml" &&
        rm -rf "$2/target/site"
}
site_versions=(3.12.1 3.21.0)
site_status=()
for v in "${site_versions[@]}"; do
    site_copy "$v" "$work/site-$v"
    mvn_run "site-$v" "$work/site-$v" site
    site_status+=($?)
done
online=0

read -r tests bad < <(surefire counts "$demo/target/surefire-reports")
if [[ ${tests:-0} -gt 0 && ${bad:-1} -eq 0 ]] && grep -q 'jp: target/classes -> target/jp/classes: ' "$work/demo.log"; then
    pass "demo: $tests tests passed on instrumented classes ($(instrumented demo))"
else
    fail "demo: tests on instrumented classes (tests: ${tests:-none}, failures and errors: ${bad:-?})"
fi

# The jar holds the compiler's classes, byte for byte, and the instrumented ones differ from them.
jar=$demo/target/maven-demo-1.0.0.jar
mkdir -p "$work/unjar"
if [[ -f $jar ]] && (cd "$work/unjar" && jar -xf "$jar") &&
    jar_classes=$(jar -tf "$jar" | grep -c '\.class$') && ((jar_classes == 5)) &&
    diff -r "$demo/target/classes/org" "$work/unjar/org" >"$work/jar-diff.log" &&
    ! cmp -s "$work/unjar/org/example/leaderboard/Leaderboard.class" "$demo/target/jp/classes/org/example/leaderboard/Leaderboard.class"; then
    pass "demo: the jar's $jar_classes classes equal target/classes byte for byte; target/jp/classes is instrumented"
else
    fail "demo: the jar holds the original classes"; show "$work/jar-diff.log"
fi

check_demo_profiles target/jp/profiles/run-* "$demo"/target/jp/profiles/run-*/test-*.jpprof

if [[ -s $demo/target/site/jp/index.html && -s $demo/target/site/jp/report.txt ]] &&
    grep -q 'Leaderboard' "$demo/target/site/jp/report.txt" && grep -qi '<html' "$demo/target/site/jp/index.html"; then
    pass "demo: jp:report wrote target/site/jp/index.html and report.txt"
else
    fail "demo: jp:report wrote target/site/jp/index.html and report.txt"; show "$work/demo.log"
fi

# --- 2b. two builds at once in one project --------------------------------------------------------
# Each build's tests write into a run directory of their own, and each jp:report reports its own
# run: one profile, with the calls of one run (the demo's above), not those of both.
twice=$work/twice
copy_project "$root/examples/maven-demo" "$twice"
single_calls=$(total_calls "$demo"/target/jp/profiles/run-*/*.jpprof)
# Compiled first, so that the two builds do not compile into one directory at once; test-compile
# runs jp:instrument too, whose run of profiles (empty, the tests did not run) goes.
if mvn_run twice-prepare "$twice" test-compile && rm -rf "$twice/target/jp/profiles"; then
    # Surefire deletes its directory of booter jars (target/surefire) when its run ends, which
    # would pull the jar from under the other build's test JVM: each build has its own.
    mvn_run twice-1 "$twice" -DtempDir=surefire-1 test jp:report & first=$!
    mvn_run twice-2 "$twice" -DtempDir=surefire-2 test jp:report & second=$!
    wait "$first"; first_status=$?
    wait "$second"; second_status=$?
    runs=("$twice"/target/jp/profiles/run-*/)
    totals=()
    for run in "${runs[@]}"; do
        totals+=("$(total_calls "$run"/*.jpprof)")
    done
    if ((first_status == 0 && second_status == 0)) && ((${#runs[@]} == 2)) &&
        [[ ${totals[*]} == "$single_calls $single_calls" ]] &&
        grep -q 'jp: report of maven-demo (1 profile): ' "$work/twice-1.log" && grep -q 'jp: report of maven-demo (1 profile): ' "$work/twice-2.log"; then
        pass "at once: two builds of mvn test jp:report in one project, each with a run of its own ($single_calls calls each) and a report of it"
    else
        fail "at once: two builds, a run each (runs: ${#runs[@]}, calls: ${totals[*]:-none}, one run: $single_calls)"
        grep -h 'jp: report of' "$work/twice-1.log" "$work/twice-2.log"; show "$work/twice-1.log" 10; show "$work/twice-2.log" 10
    fi
else
    fail "at once: mvn test-compile"; show "$work/twice-prepare.log"
fi

# --- 2d. the site report ------------------------------------------------------------------------
# `mvn site` with the plugin in <reporting>: "Project Reports" link the JP report, jp/index.html,
# written from the profiles of the earlier `mvn verify`; with no profiles, no link to a missing page.
for i in "${!site_versions[@]}"; do
    v=${site_versions[$i]} dir=$work/site-${site_versions[$i]}
    link=$(grep -o '<a href="[^"]*"[^>]*>JP profile</a>' "$dir/target/site/project-reports.html" 2>/dev/null | head -1 | sed 's/<a href="\([^"]*\)".*/\1/')
    if ((site_status[i] == 0)) && [[ $link == jp/index.html ]] && complete_page "$dir/target/site/$link" &&
        grep -q 'Leaderboard' "$dir/target/site/jp/report.txt" && grep -q '"JP profile" report .*jp-maven-plugin:.*:site-report' "$work/site-$v.log"; then
        pass "site: mvn site (maven-site-plugin $v): project-reports.html links the JP report, $link, which is there"
    else
        fail "site: mvn site (maven-site-plugin $v): project-reports.html links the JP report (link: ${link:-none})"; show "$work/site-$v.log"
    fi
done
rm -rf "$work/site-3.12.1/target"
if mvn_run site-none "$work/site-3.12.1" site && [[ ! -e $work/site-3.12.1/target/site/jp ]] &&
    ! grep -qs 'jp/index.html' "$work/site-3.12.1/target/site/project-reports.html" &&
    grep -q 'jp: no profiles in target/jp/profiles; the site lists no JP report' "$work/site-none.log"; then
    pass "site: with no profiles, mvn site lists no JP report and says why"
else
    fail "site: with no profiles, mvn site lists no JP report"; show "$work/site-none.log"
fi

# --- 2e. a one-off run, the POM untouched ----------------------------------------------------------
# A copy of the demo whose POM names nothing of JP's: `mvn org.jpprof:jp-maven-plugin:<v>:profile`
# forks the lifecycle up to test with jp:instrument and Surefire on the instrumented classes, and
# reports; every method has the calls and own bytecodes of the demo's own (configured) run. The
# package phase after it in the same build packages the compiler's classes.
hot_methods() { # REPORT.TXT: method, own bytecodes and calls of each row of the hot-methods table
    sed -n '/^== Hot methods/,$p' "$1" | awk 'NR > 4 && NF >= 7 { print $NF, $1, $5 }' | sort
}
plain=$work/plain
copy_project "$root/examples/maven-demo" "$plain"
sed -i '/<!-- JP: instrument/,/<\/plugin>/d; /<classesDirectory>/,/<\/properties>/d; /<jp.version>/d' "$plain/pom.xml"
hot_methods "$demo/target/site/jp/report.txt" >"$work/demo-hot.txt"
if grep -q 'jpprof\|${jp\.' "$plain/pom.xml"; then
    fail "one-off: the copy's POM still names JP"; grep -n 'jpprof\|${jp\.' "$plain/pom.xml"
elif mvn_run plain "$plain" -Djp.bba=precise "org.jpprof:jp-maven-plugin:$version:profile" package &&
    hot_methods "$plain/target/site/jp/report.txt" >"$work/plain-hot.txt" && [[ -s $work/plain-hot.txt ]] &&
    cmp -s "$work/demo-hot.txt" "$work/plain-hot.txt" && grep -q '> \[jp\]test @ maven-demo' "$work/plain.log" &&
    ! grep -q '\[WARNING\] jp: ' "$work/plain.log" &&
    (cd "$work" && rm -rf plain-jar && mkdir plain-jar && cd plain-jar && jar -xf "$plain/target/maven-demo-1.0.0.jar") &&
    diff -r "$plain/target/classes/org" "$work/plain-jar/org" >/dev/null; then
    pass "one-off: mvn org.jpprof:jp-maven-plugin:$version:profile package on a POM without JP: $(wc -l <"$work/plain-hot.txt") methods with the calls and bytecodes of the configured demo's run; the jar holds the compiler's classes"
else
    fail "one-off: jp:profile on a POM without JP profiles the tests as the configured demo does"
    diff "$work/demo-hot.txt" "$work/plain-hot.txt" | head; show "$work/plain.log"
fi

# --- 2c. per-test contexts -------------------------------------------------------------------------
# The demo (JUnit 4, Surefire's JUnit 4 provider with JP's listener): every test its own top-level
# context, StatsTest's instance set-up (a field of four players) inside each of its tests, the
# class's context from JUnit 4.13's class notifications; each build's per-test totals equal.
demo_profiles=("$demo"/target/jp/profiles/run-*/test-*.jpprof)
check_demo_tests "$work/demo-tests.folded" "$demo/target/surefire-reports" "${demo_profiles[@]}"
per_test_totals "${demo_profiles[@]}" >"$work/demo-totals.txt"
same=0
for run in "$twice"/target/jp/profiles/run-*/; do
    per_test_totals "$run"/*.jpprof >"$work/twice-totals.txt"
    cmp -s "$work/demo-totals.txt" "$work/twice-totals.txt" && same=$((same + 1))
done
if ((same == 2)) && [[ -s $work/demo-totals.txt ]]; then
    pass "per-test: demo: three builds give identical per-test totals ($(wc -l <"$work/demo-totals.txt") test contexts)"
else
    fail "per-test: demo: per-test totals differ between builds ($same of 2 equal)"; diff "$work/demo-totals.txt" "$work/twice-totals.txt" | head
fi

# A JUnit 5 project (Surefire's JUnit Platform provider, nothing of JP's in the POM but the
# instrument goal): each invocation of a parameterized test a context of its own, with @BeforeEach
# inside it and @BeforeAll under the class's context; the longer line runs more bytecodes.
if ((params_status == 0)) && "$jp" report "$params"/target/jp/profiles/run-*/*.jpprof --format folded --metric calls \
    --out "$work/params-calls.folded" && "$jp" report "$params"/target/jp/profiles/run-*/*.jpprof --format folded \
    --metric bytecodes --out "$work/params-bytecodes.folded"; then
    check_per_test params "$work/params-calls.folded" "$params/target/surefire-reports"
    check_params_contexts "$work/params-calls.folded" "$work/params-bytecodes.folded"
else
    fail "per-test: params: mvn verify of a JUnit 5 project and its profile"; show "$work/params.log" 40
fi

# A TestNG project (Surefire's TestNG provider; nothing of JP's in the POM but the instrument goal,
# TestNG loads JP's listener by itself), run twice (check_testng).
testng_runs=("$testng"/target/jp/profiles/run-*/)
if ((testng_status == 0 && ${#testng_runs[@]} == 1)) && mvn_run testng-again "$testng" test; then
    second=$(ls -d "$testng"/target/jp/profiles/run-*/ | grep -vxF "${testng_runs[0]}")
    check_testng "testng (TestNG $(testng_version), Surefire)" "${testng_runs[0]}" "${second:-none}"
else
    fail "per-test: testng: mvn verify and mvn test of a TestNG project"; show "$work/testng.log" 40; show "$work/testng-again.log" 20
fi

# --- 3. IDE ---------------------------------------------------------------------------------------
if mvn_run ide "$demo" jp:ide -Djp.mainClass=org.example.leaderboard.Main; then
    check_ide_settings jp:ide "$demo" "JP maven-demo" "$demo/target/jp/ide.txt" "$demo/target/jp/profiles" \
        "$demo/target/jp/classes" "$demo/target/classes"
else
    fail "ide: jp:ide prints the class path and JVM options"; show "$work/ide.log"
fi
rm -rf "$demo/.run"
if mvn_run ide-off "$demo" jp:ide -Djp.mainClass=org.example.leaderboard.Main -Djp.ideFiles=false &&
    [[ -f $demo/target/jp/ide.txt && ! -e $demo/.run ]]; then
    pass "ide: jp:ide -Djp.ideFiles=false writes target/jp/ide.txt and no run configuration"
else
    fail "ide: jp:ide -Djp.ideFiles=false writes target/jp/ide.txt and no run configuration"; show "$work/ide-off.log"
fi

# --- 4. incremental work and jp.skip --------------------------------------------------------------
classes=$(find "$demo/target/classes" -name '*.class' | wc -l)
if mvn_run again "$demo" jp:instrument && [[ $(instrumented again) == *": 0 rewritten, $classes reused,"* ]]; then
    pass "incremental: mvn jp:instrument again rewrites nothing ($(instrumented again | sed 's/.*: //'))"
else
    fail "incremental: mvn jp:instrument again rewrites nothing: $(instrumented again)"; show "$work/again.log"
fi

sed -i 's/throw new IllegalArgumentException("no players")/throw new IllegalArgumentException("no players at all")/' \
    "$demo/src/main/java/org/example/leaderboard/Stats.java"
if mvn_run edit "$demo" compile jp:instrument && [[ $(instrumented edit) == *": 1 rewritten, $((classes - 1)) reused,"* ]]; then
    pass "incremental: one class edited, one rewritten ($(instrumented edit | sed 's/.*: //'))"
else
    fail "incremental: one class edited, one rewritten: $(instrumented edit)"; show "$work/edit.log"
fi
clean=$work/clean
cp -r "$demo" "$clean" && rm -rf "$clean/target"
if mvn_run clean "$clean" compile jp:instrument && diff -r "$demo/target/jp/classes" "$clean/target/jp/classes" >"$work/diff.log"; then
    pass "incremental: the output after the edit equals a clean build's, byte for byte"
else
    fail "incremental: the output after the edit equals a clean build's, byte for byte"; show "$work/diff.log"
fi

rm "$demo/src/main/java/org/example/leaderboard/Main.java" "$demo/target/classes/org/example/leaderboard/Main.class"
if mvn_run delete "$demo" jp:instrument && [[ $(instrumented delete) == *" 1 deleted,"* ]] &&
    [[ ! -e $demo/target/jp/classes/org/example/leaderboard/Main.class ]]; then
    pass "incremental: a deleted class loses its instrumented class"
else
    fail "incremental: a deleted class loses its instrumented class: $(instrumented delete)"; show "$work/delete.log"
fi

rm -rf "$demo"/target/jp/profiles/run-*
if mvn_run skip "$demo" verify -Djp.skip && grep -q 'jp: skipped (jp.skip is set)' "$work/skip.log" &&
    ! grep -q 'jp: target/classes -> ' "$work/skip.log" && ! compgen -G "$demo/target/jp/profiles/run-*/*.jpprof" >/dev/null &&
    read -r tests bad < <(surefire counts "$demo/target/surefire-reports") && ((tests > 0 && bad == 0)); then
    pass "skip: -Djp.skip skips with a message; $tests tests passed on the compiler's classes, no profile"
else
    fail "skip: -Djp.skip skips with a message"; show "$work/skip.log"
fi

# --- 5. a multi-module reactor, two modules at once -----------------------------------------------
multi=$work/multi
mkdir -p "$multi/core/src/main/java/org/acme/core" "$multi/core/src/test/java/org/acme/core" \
    "$multi/app/src/main/java/org/acme/app" "$multi/app/src/test/java/org/acme/app"
sources=$root/integration-tests/gradle/multi-module
cp "$sources/core/src/main/java/org/acme/core/Fib.java" "$multi/core/src/main/java/org/acme/core/"
cp "$sources/core/src/test/java/org/acme/core/FibTest.java" "$multi/core/src/test/java/org/acme/core/"
cp "$sources/app/src/main/java/org/acme/app/Table.java" "$multi/app/src/main/java/org/acme/app/"
cp "$sources/app/src/test/java/org/acme/app/TableTest.java" "$multi/app/src/test/java/org/acme/app/"
# The parent: the demo's build section (plugin versions, JP, Surefire), inherited by both modules.
build_section=$(sed -n '/<build>/,/<\/build>/p' "$demo/pom.xml" | sed '/<goal>report<\/goal>/d')
cat >"$multi/pom.xml" <<XML
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.acme</groupId>
  <artifactId>multi</artifactId>
  <version>1.0.0</version>
  <packaging>pom</packaging>
  <modules>
    <module>core</module>
    <module>app</module>
  </modules>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>17</maven.compiler.release>
    <jp.version>$version</jp.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>junit</groupId>
      <artifactId>junit</artifactId>
      <version>4.13.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
$build_section
</project>
XML
module_pom() { # NAME [DEPENDENCY]
    local dep=""
    [[ -n ${2:-} ]] && dep="<dependencies><dependency><groupId>org.acme</groupId><artifactId>$2</artifactId><version>1.0.0</version></dependency></dependencies>"
    cat >"$multi/$1/pom.xml" <<XML
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.acme</groupId><artifactId>multi</artifactId><version>1.0.0</version></parent>
  <artifactId>$1</artifactId>
  $dep
</project>
XML
}
module_pom core
module_pom app core
if mvn_run multi "$multi" -T 2 verify jp:report; then
    core_profiles=("$multi"/core/target/jp/profiles/run-*/*.jpprof)
    app_profiles=("$multi"/app/target/jp/profiles/run-*/*.jpprof)
    if [[ -f ${core_profiles[0]} && -f ${app_profiles[0]} ]] &&
        "$jp" report "${core_profiles[@]}" --format folded --metric calls | grep -q '^\[test\] org\.acme\.core\.FibTest#[^;]*;org.acme.core.Fib.fib(int):long;org.acme.core.Fib.fib(int):long' &&
        "$jp" report "${app_profiles[@]}" --format folded --metric calls | grep -q '^\[test\] org\.acme\.app\.TableTest#[^;]*;org.acme.app.Table.row(int):java.lang.String' &&
        grep -q 'MultiThreadedBuilder implementation with a thread count of 2' "$work/multi.log" &&
        grep -q 'jp: target/classes -> target/jp/classes: 1 rewritten' "$work/multi.log" &&
        [[ $(grep -c 'jp: target/classes -> target/jp/classes: ' "$work/multi.log") == 2 ]]; then
        pass "multi: mvn -T 2 verify: core and app (depending on core) each profiled on their own instrumented classes, per test"
    else
        fail "multi: profiles of core (Fib.fib) and app (Table.row)"; show "$work/multi.log"
    fi
    if [[ -s $multi/target/site/jp/index.html && -s $multi/core/target/site/jp/index.html && -s $multi/app/target/site/jp/index.html ]] &&
        grep -q 'Fib' "$multi/target/site/jp/report.txt" && grep -q 'Table' "$multi/target/site/jp/report.txt"; then
        pass "multi: jp:report wrote each module's report and one of the whole reactor"
    else
        fail "multi: jp:report of the reactor"; show "$work/multi.log"
    fi
else
    fail "multi: mvn -T 2 verify"; show "$work/multi.log" 40
fi

# One jpDirectory for all modules: each module's jp:instrument would delete the classes the other
# wrote there (as inputs that are gone). The second module to instrument is refused, naming the
# first; the reactor is built with -T 4 as a user with more cores would.
shared=$work/shared
cp -r "$multi" "$shared" && rm -rf "$shared/target" "$shared"/*/target
sed -i 's|<bba>precise</bba>|&<jpDirectory>${maven.multiModuleProjectDirectory}/target/jp</jpDirectory>|' "$shared/pom.xml"
if mvn_run shared "$shared" -T 4 verify; then
    fail "shared jpDirectory: two modules with one jpDirectory are refused"; show "$work/shared.log"
elif grep -q "jp: $shared/target/jp is the jpDirectory of org.acme:core ($shared/core) already: modules must not share one" "$work/shared.log" &&
    grep -q 'thread count of 4' "$work/shared.log" && ! grep -q 'NoClassDefFoundError' "$work/shared.log"; then
    pass "shared jpDirectory: mvn -T 4 verify refuses app's jpDirectory, which core has: $(grep -m1 -o 'jp: [^ ]* is the jpDirectory of [^:]*:[^ ]*' "$work/shared.log")"
else
    fail "shared jpDirectory: the refusal names the directory and the module that has it"; show "$work/shared.log"
fi

# --- 5b. the modules a module depends on, instrumented in its tests --------------------------------
# integration-tests/maven/reactor-demo: app's test calls core's Fib.fib(12) through app's Line.of,
# core's test calls it directly. app's tests run on an instrumented copy of core (its target/classes
# under `mvn test`, its jar under `mvn verify`), so app's report has Fib.fib with the counts of
# core's report: 465 calls (2 fib(13) - 1), in the same 12 contexts, the same bytecodes.
fib_hot() { # REPORT.TXT: own bytecodes, calls and contexts of Fib.fib, from the hot-methods table
    sed -n '/^== Hot methods/,$p' "$1" | awk '$NF == "org.acme.core.Fib.fib(int):long" { print $1, $5, $6; exit }'
}
check_reactor() { # LOG WHAT: the reports of a `mvn <phase> jp:report` of $reactor, its log $work/LOG.log
    local dir=$reactor what=$2 core_fib app_fib all_fib
    core_fib=$(fib_hot "$dir/core/target/site/jp/report.txt")
    app_fib=$(fib_hot "$dir/app/target/site/jp/report.txt")
    all_fib=$(fib_hot "$dir/target/site/jp/report.txt")
    if [[ $core_fib == *" 465 12" && $app_fib == "$core_fib" ]] && grep -q "$what -> target/jp/deps/org.acme.core/" "$work/$1.log" &&
        grep -q 'org.acme.app.Line.of(int)' "$dir/target/site/jp/report.txt" && [[ $all_fib == *" 930 24" ]]; then
        pass "reactor: $1: app's tests run core's classes instrumented ($what): Fib.fib in app's report.txt as in core's ($app_fib: bytecodes, calls, contexts); the reactor's report has both modules"
    else
        fail "reactor: $1: Fib.fib in app's report.txt as in core's (core: ${core_fib:-none}, app: ${app_fib:-none}, reactor: ${all_fib:-none})"
        show "$work/$1.log"
    fi
}
reactor=$work/reactor
copy_project "$root/integration-tests/maven/reactor-demo" "$reactor"
if mvn_run reactor "$reactor" test jp:report; then
    check_reactor reactor "$reactor/core/target/classes"
else
    fail "reactor: mvn test jp:report"; show "$work/reactor.log" 40
fi
rm -rf "$reactor"/*/target/site
if mvn_run reactor-verify "$reactor" verify jp:report; then
    check_reactor reactor-verify "$reactor/core/target/core-1.0.0.jar"
    mkdir -p "$work/reactor-jar"
    if (cd "$work/reactor-jar" && jar -xf "$reactor/core/target/core-1.0.0.jar" org/acme/core/Fib.class) &&
        cmp -s "$work/reactor-jar/org/acme/core/Fib.class" "$reactor/core/target/classes/org/acme/core/Fib.class"; then
        pass "reactor: core's jar keeps the compiler's Fib.class"
    else
        fail "reactor: core's jar keeps the compiler's Fib.class"
    fi
else
    fail "reactor: mvn verify jp:report"; show "$work/reactor-verify.log" 40
fi
if mvn_run reactor-off "$reactor" test jp:report -Djp.reactorDependencies=false &&
    grep -q 'org.acme.app.Line.of(int)' "$reactor/app/target/site/jp/report.txt" &&
    [[ -z $(fib_hot "$reactor/app/target/site/jp/report.txt") ]] && ! grep -q 'target/jp/deps/' "$work/reactor-off.log"; then
    pass "reactor: -Djp.reactorDependencies=false: app's tests run core's classes as the reactor hands them over, uninstrumented"
else
    fail "reactor: -Djp.reactorDependencies=false leaves core's classes alone"; show "$work/reactor-off.log"
fi
# The one-off jp:profile in the same reactor with nothing of JP's in its POMs: app's report again
# has Fib.fib with core's counts.
plain_reactor=$work/plain-reactor
copy_project "$root/integration-tests/maven/reactor-demo" "$plain_reactor"
# Drops the <plugin> of org.jpprof and Surefire's <classesDirectory>.
awk '/<plugin>$/ { held = $0; next }
     held != "" { if ($0 ~ /org\.jpprof/) skip = 1; else print held; held = "" }
     skip { if ($0 ~ /<\/plugin>/) skip = 0; next }
     !/<classesDirectory>/ { print }' "$root/integration-tests/maven/reactor-demo/pom.xml" >"$plain_reactor/pom.xml"
if grep -q 'jpprof\|${jp\.' "$plain_reactor/pom.xml"; then
    fail "reactor: one-off: the copy's POM still names JP"; grep -n 'jpprof\|${jp\.' "$plain_reactor/pom.xml"
elif mvn_run plain-reactor "$plain_reactor" -Djp.bba=precise "org.jpprof:jp-maven-plugin:$version:profile" &&
    [[ $(fib_hot "$plain_reactor/app/target/site/jp/report.txt") == "$(fib_hot "$reactor/core/target/site/jp/report.txt")" ]] &&
    grep -q 'jp: reactor-demo is a pom module, with no tests to profile' "$work/plain-reactor.log"; then
    pass "reactor: one-off: jp:profile on the reactor with no JP in its POMs: Fib.fib in app's report as in core's ($(fib_hot "$plain_reactor/app/target/site/jp/report.txt"))"
else
    fail "reactor: one-off: jp:profile on the reactor with no JP in its POMs (app: $(fib_hot "$plain_reactor/app/target/site/jp/report.txt" 2>/dev/null))"
    show "$work/plain-reactor.log"
fi

# --- 6. two builds in one JVM ---------------------------------------------------------------------
maven_home=$(mvn -v 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' | sed -n 's/^Maven home: //p')
embedded=$work/embedded
copy_project "$root/examples/maven-demo" "$embedded"
if [[ -d $maven_home/lib && -n $(compgen -G "$maven_home/lib/maven-embedder*.jar") ]]; then
    if (cd "$embedded" && java -cp "$maven_home/lib/*:$maven_home/boot/*:$maven_home/conf/logging" \
        -Dmaven.home="$maven_home" -Dmaven.multiModuleProjectDirectory="$embedded" \
        -Djp.engine.cacheDir="$work/embedded-engine" -Dstyle.color=never \
        "$root/integration-tests/maven/EmbeddedTwice.java" "$embedded" \
        -B -o -s "$work/settings.xml" -Dmaven.repo.local="$repo" verify) >"$work/embedded.log" 2>&1 &&
        [[ $(grep -c 'BUILD SUCCESS' "$work/embedded.log") == 2 ]] &&
        grep -q 'jp: target/classes -> target/jp/classes: 0 rewritten' "$work/embedded.log" &&
        compgen -G "$work/embedded-engine/libjp_jni-*-1.so" >/dev/null; then
        pass "one JVM: two embedded builds in a row; the second loads the engine in a new class loader"
    else
        fail "one JVM: two embedded builds in a row"; show "$work/embedded.log" 40
    fi
else
    skip "one JVM: no maven-embedder jar in ${maven_home:-the Maven home}"
fi

# --- 6b. the regression gate ----------------------------------------------------------------------
# jp:baseline records the demo's counts; a clean second run records the same bytes; jp:check passes
# on the same code, fails naming Leaderboard.rank and the tests that run it with their numbers once
# rank does more work, lets that through with tolerances set for them in the POM, and passes again once the change is
# reverted. A baseline of other settings is refused, a missing one explained.
gate=$work/gate
copy_project "$root/examples/maven-demo" "$gate"
rank='org.example.leaderboard.Leaderboard.rank(Ljava/util/List;)Ljava/util/List;'
leaderboard=$gate/src/main/java/org/example/leaderboard/Leaderboard.java
cp "$leaderboard" "$work/Leaderboard.java.orig"
if mvn_run gate-baseline "$gate" verify jp:baseline -Djp.methodFloor=0 &&
    grep -q "^method [0-9]* [0-9]* $rank\$" "$gate/jp-baseline.txt" && grep -q '^setting bba precise$' "$gate/jp-baseline.txt"; then
    pass "gate: jp:baseline wrote jp-baseline.txt ($(wc -l <"$gate/jp-baseline.txt") lines, bba precise, Leaderboard.rank recorded)"
else
    fail "gate: jp:baseline wrote jp-baseline.txt"; show "$work/gate-baseline.log"
fi
cp "$gate/jp-baseline.txt" "$work/baseline-1.txt" 2>/dev/null
rm -rf "$gate/target" # (offline, and maven-clean-plugin may not be in the repository)
if mvn_run gate-again "$gate" verify jp:baseline -Djp.methodFloor=0 && cmp -s "$work/baseline-1.txt" "$gate/jp-baseline.txt"; then
    pass "gate: a second, clean run of the tests gives a byte-identical baseline"
else
    fail "gate: a second, clean run of the tests gives a byte-identical baseline"; diff "$work/baseline-1.txt" "$gate/jp-baseline.txt" | head -20
fi
if mvn_run gate-pass "$gate" verify jp:check && grep -q '\] jp check: passed' "$work/gate-pass.log"; then
    pass "gate: jp:check passes on the same code"
else
    fail "gate: jp:check passes on the same code"; show "$work/gate-pass.log"
fi
sed -i 's|List<Player> ranked = new ArrayList<>(players);|List<Player> ranked = new ArrayList<>(players);\n        for (int k = 0; k < 100000; k++) { ranked.size(); }|' "$leaderboard"
regression="regression: method $rank: [0-9]* -> [0-9]* bytecodes (+[0-9]*, +[0-9.]*%; tolerance 1%)"
# The demo's tests are contexts of their own, so the tests that run rank regress with it.
test_regression="regression: test org.example.leaderboard.LeaderboardTest#ranksTwoThousandGeneratedPlayers(): [0-9]* -> [0-9]* bytecodes"
if ! mvn_run gate-fail "$gate" verify jp:check && grep -q "\] $regression" "$work/gate-fail.log" &&
    grep -q "\] $test_regression" "$work/gate-fail.log" &&
    grep -q 'jp: [0-9]* regressions\{0,1\} beyond the tolerance against jp-baseline.txt' "$work/gate-fail.log" &&
    grep -qF "| method | \`$rank\` |" "$gate/target/jp/check/jp-check.md"; then
    pass "gate: jp:check fails once rank does more work, naming the method and the tests: $(grep -m1 -o "$regression" "$work/gate-fail.log")"
else
    fail "gate: jp:check fails naming Leaderboard.rank and the tests that run it with their numbers"; show "$work/gate-fail.log"
fi
# jp diff of the passing run against the failing one (the run directories kept: the newest
# finished run stays when a new one starts) ranks rank first among the methods.
gate_runs=("$gate"/target/jp/profiles/run-*)
first_method=$( ((${#gate_runs[@]} == 2)) && first_changed_method "${gate_runs[0]}" "${gate_runs[1]}")
if [[ $first_method == changed*org.example.leaderboard.Leaderboard.rank\(* ]]; then
    pass "gate: jp diff of the two runs ranks Leaderboard.rank first: $(tr -s ' ' <<<"$first_method")"
else
    fail "gate: jp diff of the two runs ranks Leaderboard.rank first (runs: ${#gate_runs[@]}, first: ${first_method:-none})"
fi
# jp:baseline kept the profiles it recorded, so the failing check wrote the diff of them against
# its run, beside jp:report's report.
check_gate_diff jp:check "$work/gate-fail.log" target/site/jp/check-diff.html "$gate/target/site/jp/check-diff.html" \
    "$gate/target/jp/baseline-profiles" "${gate_runs[-1]}"
# Without them (a fresh clone), the failure says so and gives the jp diff command.
rm -f "$gate/target/site/jp/check-diff.html"
if ! mvn_run gate-unkept "$gate" verify jp:check -Djp.baselineProfiles=none && [[ ! -e $gate/target/site/jp/check-diff.html ]] &&
    grep -q "no profiles of the baseline's run in none to diff against: run jp:baseline" "$work/gate-unkept.log" &&
    grep -q 'jp diff <profiles of the baseline' "$work/gate-unkept.log"; then
    pass "gate: without the baseline's profiles, the failing jp:check says so and how to get the diff"
else
    fail "gate: without the baseline's profiles, the failing jp:check says so and how to get the diff"; show "$work/gate-unkept.log"
fi
tolerance() { echo "<tolerance><pattern>$1</pattern><percent>1000000</percent></tolerance>"; }
sed "s|<bba>precise</bba>|<bba>precise</bba><tolerances>$(tolerance 'org.example.leaderboard.Leaderboard.rank*')$(tolerance 'org.example.leaderboard.LeaderboardTest#*')</tolerances>|" \
    "$gate/pom.xml" >"$gate/pom-tolerant.xml"
if mvn_run gate-tolerant "$gate" -f pom-tolerant.xml verify jp:check && grep -q '\] jp check: passed' "$work/gate-tolerant.log"; then
    pass "gate: tolerances set in the POM for Leaderboard.rank and the tests of LeaderboardTest let that regression through"
else
    fail "gate: tolerances set in the POM for Leaderboard.rank and the tests of LeaderboardTest let that regression through"; show "$work/gate-tolerant.log"
fi
cp "$work/Leaderboard.java.orig" "$leaderboard"
if mvn_run gate-reverted "$gate" verify jp:check && grep -q '\] jp check: passed' "$work/gate-reverted.log"; then
    pass "gate: jp:check passes again once the change is reverted"
else
    fail "gate: jp:check passes again once the change is reverted"; show "$work/gate-reverted.log"
fi
sed 's/^setting bba .*/setting bba default/' "$gate/jp-baseline.txt" >"$gate/other.txt"
if ! mvn_run gate-other "$gate" verify jp:check -Djp.baseline=other.txt &&
    grep -q 'other.txt: recorded with other settings than these profiles.*bba is `default` in the baseline, `precise` now' "$work/gate-other.log"; then
    pass "gate: a baseline of other settings is refused, naming the setting"
else
    fail "gate: a baseline of other settings is refused"; show "$work/gate-other.log"
fi
if ! mvn_run gate-missing "$gate" verify jp:check -Djp.baseline=none.txt &&
    grep -q 'none.txt: no baseline here; record one .*mvn jp:baseline' "$work/gate-missing.log"; then
    pass "gate: a missing baseline fails saying how to record one"
else
    fail "gate: a missing baseline fails saying how to record one"; show "$work/gate-missing.log"
fi

# --- 7. bad input ---------------------------------------------------------------------------------
# Sources but no classes (jp:instrument before compiling): a failure naming the directory.
uncompiled=$work/uncompiled
copy_project "$root/examples/maven-demo" "$uncompiled"
mkdir -p "$uncompiled/target/classes"
if mvn_run uncompiled "$uncompiled" jp:instrument; then
    fail "bad input: jp:instrument with sources but no classes fails"; show "$work/uncompiled.log"
elif grep -q "jp: $uncompiled/target/classes holds no class files, but the project has sources (.*\.java): compile first (\`mvn compile jp:instrument\`" "$work/uncompiled.log"; then
    pass "bad input: jp:instrument with sources but an empty target/classes fails: $(grep -m1 -o 'jp: [^ ]* holds no class files.*there' "$work/uncompiled.log")"
else
    fail "bad input: jp:instrument with sources but no classes names target/classes and says to compile first"; show "$work/uncompiled.log"
fi

# A Surefire <argLine> of the POM's own, which hides JP's options: a warning that shows how to write
# it; the demo's configuration gets no warning.
hidden=$work/hidden
copy_project "$root/examples/maven-demo" "$hidden"
sed -i 's|<classesDirectory>${jp.classesDirectory}</classesDirectory>|&\n          <argLine>-Xmx256m</argLine>|' "$hidden/pom.xml"
if mvn_run hidden "$hidden" compile jp:instrument &&
    grep -q '\[WARNING\] jp: the <argLine> of maven-surefire-plugin replaces .*<argLine>@{argLine} -Xmx256m</argLine>' "$work/hidden.log" &&
    ! grep -q '\[WARNING\] jp: ' "$work/demo.log"; then
    pass "hidden settings: a POM's own Surefire <argLine> gets a warning saying how to keep JP's options; the demo none"
else
    fail "hidden settings: a POM's own Surefire <argLine> gets a warning"; show "$work/hidden.log"; grep '\[WARNING\] jp: ' "$work/demo.log"
fi

bad=$work/bad
copy_project "$root/examples/maven-demo" "$bad"
if mvn_run bad-compile "$bad" compile; then
    # Empty items in a list on the command line are left out (Maven gives them as nulls).
    if mvn_run includes "$bad" jp:instrument '-Djp.includes=org.example.**,,org.other.**,' &&
        grep -q 'jp: target/classes -> target/jp/classes: [1-9][0-9]* rewritten' "$work/includes.log"; then
        pass "settings: -Djp.includes=org.example.**,,org.other.**, instruments, leaving out the empty items"
    else
        fail "settings: -Djp.includes with empty items"; show "$work/includes.log"
    fi
    # Settings the runtime would only warn about fail the build, naming the setting.
    for setting in 'agent=a periodic agent' 'granularity=ten'; do
        name=${setting%%=*}
        if mvn_run "wrong-$name" "$bad" jp:instrument "-Djp.$setting"; then
            fail "bad input: -Djp.$setting fails the build"; show "$work/wrong-$name.log"
        elif grep -q "jp: jp.$name = '${setting#*=}' is \(neither\|not\)" "$work/wrong-$name.log"; then
            pass "bad input: -Djp.$setting fails the build: $(grep -m1 -o "jp: jp.$name = .*line" "$work/wrong-$name.log")"
        else
            fail "bad input: -Djp.$setting fails the build naming jp.$name"; show "$work/wrong-$name.log"
        fi
    done
    printf '\xca\xfe\xba\xbe\x00\x00\x00\x3d\x00\x10garbage' >"$bad/target/classes/org/example/leaderboard/Broken.class"
    if mvn_run bad "$bad" jp:instrument; then
        fail "bad input: a corrupt class fails jp:instrument"; show "$work/bad.log"
    elif grep -q 'Broken.class' "$work/bad.log" && grep -q 'could not be instrumented' "$work/bad.log" && no_crash "$bad" "$work"; then
        pass "bad input: a corrupt class fails jp:instrument naming it: $(grep -m1 '/Broken.class' "$work/bad.log" | sed 's/^[[:space:]]*//')"
    else
        fail "bad input: the failure names Broken.class, and no JVM crashed"; show "$work/bad.log"
    fi
    echo 'not toml [' >"$bad/jp.toml"
    rm "$bad/target/classes/org/example/leaderboard/Broken.class"
    if mvn_run bad-config "$bad" jp:instrument -Djp.configFile=jp.toml; then
        fail "bad input: a malformed jp.toml fails jp:instrument"; show "$work/bad-config.log"
    elif grep -q "$bad/jp.toml" "$work/bad-config.log" && no_crash "$bad" "$work"; then
        pass "bad input: a malformed jp.toml fails jp:instrument naming it"
    else
        fail "bad input: the failure names jp.toml"; show "$work/bad-config.log"
    fi
    mkdir -p "$bad/target/jp/profiles/run-broken"
    printf 'not a profile' >"$bad/target/jp/profiles/run-broken/broken.jpprof"
    if mvn_run bad-profile "$bad" jp:report; then
        fail "bad input: a corrupt profile fails jp:report"; show "$work/bad-profile.log"
    elif grep -q "$bad/target/jp/profiles/run-broken/broken.jpprof" "$work/bad-profile.log" && no_crash "$bad" "$work"; then
        pass "bad input: a corrupt profile fails jp:report naming it"
    else
        fail "bad input: the failure names broken.jpprof"; show "$work/bad-profile.log"
    fi
else
    fail "bad input: mvn compile"; show "$work/bad-compile.log"
fi

exit "$failed"
