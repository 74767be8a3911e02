# Shell helpers for suites that run the verification harness beside this file. Source it, then:
#
#   verify_build JDK [JDK25]   compiles VerifyClasses with JDK's javac (17 or newer) and, when
#                              JDK25 is given, ClassFileVerify with its javac, into
#                              ${JP_CACHE_DIR:-$HOME/.cache/jp}/verify/<hash of the sources>/, once.
#                              Sets VERIFY_HOTSPOT_CP and VERIFY_CLASSFILE_CP (empty without JDK25).
#   verify_hotspot JAVA ARGS...     runs VerifyClasses on the java binary JAVA
#   verify_classfile JAVA ARGS...   runs ClassFileVerify on JAVA (24 or newer)
#                                   (both within ${VERIFY_TIMEOUT:-600} seconds, else status 124)
#   verify_compare JAVA BEFORE.tsv AFTER.tsv   prints the new failures; status 1 when there are any
#
# The ARGS are those of the Java programs: [--cp DEPS] [--separate] [--report FILE] [--tsv FILE]
# [--title TEXT] ROOT... (see VerifyClasses.java and README.md).
# shellcheck shell=bash

verify_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

verify_build() {
    local jdk=$1 jdk25=${2:-} hash out
    hash=$(cat "$verify_dir"/*.java | sha256sum | cut -c1-16)
    out=${JP_CACHE_DIR:-$HOME/.cache/jp}/verify/$hash
    if [[ ! -f $out/hotspot/.complete ]]; then
        rm -rf "$out/hotspot"
        mkdir -p "$out/hotspot"
        "$jdk/bin/javac" --release 17 -nowarn -d "$out/hotspot" \
            "$verify_dir/ClassRoots.java" "$verify_dir/Findings.java" "$verify_dir/VerifyArgs.java" "$verify_dir/VerifyClasses.java" \
            "$verify_dir/SerialUids.java" || return 1
        touch "$out/hotspot/.complete"
    fi
    VERIFY_HOTSPOT_CP=$out/hotspot
    VERIFY_CLASSFILE_CP=
    if [[ -n $jdk25 ]]; then
        if [[ ! -f $out/classfile/.complete ]]; then
            rm -rf "$out/classfile"
            mkdir -p "$out/classfile"
            "$jdk25/bin/javac" -nowarn -d "$out/classfile" \
                "$verify_dir/ClassRoots.java" "$verify_dir/Findings.java" "$verify_dir/VerifyArgs.java" "$verify_dir/ClassFileVerify.java" || return 1
            touch "$out/classfile/.complete"
        fi
        VERIFY_CLASSFILE_CP=$out/classfile
    fi
}

verify_hotspot() {
    local java=$1
    shift
    timeout "${VERIFY_TIMEOUT:-600}" "$java" -Xss4m -cp "$VERIFY_HOTSPOT_CP" VerifyClasses "$@"
}

verify_classfile() {
    local java=$1
    shift
    timeout "${VERIFY_TIMEOUT:-600}" "$java" -Xss4m -cp "$VERIFY_CLASSFILE_CP" ClassFileVerify "$@"
}

serial_uids() {
    local java=$1
    shift
    timeout "${VERIFY_TIMEOUT:-600}" "$java" -Xss4m -cp "$VERIFY_HOTSPOT_CP" SerialUids "$@"
}

verify_compare() {
    "$1" -cp "$VERIFY_HOTSPOT_CP" VerifyClasses --compare "$2" "$3"
}
