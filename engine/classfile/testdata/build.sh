#!/usr/bin/env bash
# Regenerates the class files of this test corpus from their sources. Tests never run it: they read
# the checked-in results, so that the corpus stays byte-for-byte what was reviewed.
#
#   java8/    common/*.java compiled by javac 17 with --release 8
#   java17/   common/*.java and java17/*.java compiled by javac 17 (--release 17);
#             java17/module/ compiled likewise and packed with `jar --main-class`, which adds the
#             ModulePackages and ModuleMainClass attributes to module-info.class
#   java25/   common/*.java and java25/*.java compiled by Temurin 25's javac; java25/module/ likewise
#   old/      a few classes of major versions 45-48 taken from Apache-2.0 jars on Maven Central
#             (see old/README.md); fetched with `mvn dependency:copy` into a temporary folder
#   invalid/  broken inputs written by invalid/make_invalid.py (their .stderr files are written by
#             `BLESS=1 cargo test -p jp-classfile --test invalid`)
#
# Every class is compiled with -g (LineNumberTable, LocalVariableTable, LocalVariableTypeTable)
# and -parameters (MethodParameters).
#
# Environment: JAVAC17 (default: javac on PATH, must be version 17) and JAVA25_HOME (default:
# /usr/lib/jvm/temurin-25-jdk-amd64). The corpus was last built with javac 17.0.15 and 25.0.3.
# Usage: engine/classfile/testdata/build.sh [java8|java17|java25|old|invalid]...  (default: all)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
javac17=${JAVAC17:-javac}
java25_home=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
# shellcheck disable=SC2054 # the commas belong to -Xlint
flags=(-g -parameters -encoding UTF-8 -Xlint:all,-serial,-try,-options -implicit:none)

die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

require_version() { # javac, wanted major version
    local version
    version=$("$1" -version 2>&1 | awk '{print $2}')
    [[ $version == "$2" || $version == "$2".* ]] || die "$1 is version $version; need $2"
}

clean() { # folder: drop the class files compiled into it before
    find "$1" -name '*.class' -delete
}

# Compiles module/ of $1 with javac $2, then lets jar add ModulePackages and ModuleMainClass.
build_module() {
    local dir=$1/module javac=$2 jar=$3 tmp
    tmp=$(mktemp -d)
    # shellcheck disable=SC2046
    "$javac" "${flags[@]}" -d "$tmp/classes" $(find "$dir" -name '*.java')
    "$jar" --create --file "$tmp/module.jar" --main-class jp.testdata.impl.English -C "$tmp/classes" .
    (cd "$dir" && unzip -qo "$tmp/module.jar" -x 'META-INF/*')
    rm -rf "$tmp"
}

build_java8() {
    require_version "$javac17" 17
    clean "$here/java8"
    "$javac17" "${flags[@]}" --release 8 -d "$here/java8" "$here"/common/*.java
}

build_java17() {
    require_version "$javac17" 17
    clean "$here/java17"
    "$javac17" "${flags[@]}" --release 17 -d "$here/java17" "$here"/common/*.java "$here"/java17/*.java
    build_module "$here/java17" "$javac17" "$(dirname "$(command -v "$javac17")")/jar"
}

build_java25() {
    local javac25=$java25_home/bin/javac
    require_version "$javac25" 25
    clean "$here/java25"
    "$javac25" "${flags[@]}" -d "$here/java25" "$here"/common/*.java "$here"/java25/*.java
    build_module "$here/java25" "$javac25" "$java25_home/bin/jar"
}

# artifact (group:name:version), path of a class inside it
old_class() {
    local artifact=$1 class=$2 name version tmp log
    name=$(cut -d: -f2 <<<"$artifact")
    version=$(cut -d: -f3 <<<"$artifact")
    tmp=$(mktemp -d)
    log=$(mvn -q -B dependency:copy -Dartifact="$artifact" -DoutputDirectory="$tmp" 2>&1) ||
        { printf '%s\n' "$log" >&2; die "could not fetch $artifact"; }
    mkdir -p "$here/old/$name-$version"
    unzip -qo -j "$tmp/$name-$version.jar" "$class" -d "$here/old/$name-$version"
    rm -rf "$tmp"
}

# shellcheck disable=SC2016 # the $ in the class names is literal
build_old() {
    clean "$here/old"
    # major 45, with jsr/ret for finally blocks
    old_class commons-collections:commons-collections:3.1 \
        'org/apache/commons/collections/functors/PrototypeFactory$PrototypeSerializationFactory.class'
    old_class commons-collections:commons-collections:3.1 \
        'org/apache/commons/collections/ExtendedProperties.class'
    # major 46, 47, 48
    old_class commons-logging:commons-logging:1.2 'org/apache/commons/logging/impl/SimpleLog.class'
    old_class commons-collections:commons-collections:3.2.2 \
        'org/apache/commons/collections/functors/PrototypeFactory$PrototypeSerializationFactory.class'
    old_class log4j:log4j:1.2.17 'org/apache/log4j/AppenderSkeleton.class'
}

build_invalid() {
    python3 "$here/invalid/make_invalid.py"
}

targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(java8 java17 java25 old invalid)
for target in "${targets[@]}"; do
    case $target in
        java8 | java17 | java25 | old | invalid) "build_$target" ;;
        *) die "unknown target $target (java8, java17, java25, old, invalid)" ;;
    esac
done
