# The JDKs the suites use besides the default one. Sourced.

# jdk_version JDK-HOME: the JAVA_VERSION of its release file.
jdk_version() { sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$1/release" 2>/dev/null; }

# find_jdk MAJOR CANDIDATE...: prints the first candidate that is a JDK (with javac) of that major
# version; fails when none is.
find_jdk() {
    local major=$1 candidate
    shift
    for candidate in "$@"; do
        [[ -n $candidate && -x $candidate/bin/javac ]] || continue
        [[ $(jdk_version "$candidate") == "$major"* ]] && { echo "$candidate"; return; }
    done
    return 1
}

# find_jdk17: prints the home of a JDK 17 with its jmods (JAVA_HOME first, then Debian's paths).
find_jdk17() {
    local candidate
    for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/java-17-openjdk-*; do
        [[ -n $candidate && -f $candidate/jmods/java.base.jmod ]] || continue
        find_jdk 17 "$candidate" && return
    done
    return 1
}

# find_temurin25: prints the home of a JDK 25 with a full image (TEMURIN25_HOME first, then
# Debian's Temurin package paths); fails when there is none or TEMURIN25_HOME=none.
find_temurin25() {
    local candidate
    [[ ${TEMURIN25_HOME:-} == none ]] && return 1
    for candidate in "${TEMURIN25_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25*; do
        [[ -n $candidate && -x $candidate/bin/jimage && -f $candidate/lib/modules ]] || continue
        find_jdk 25 "$candidate" && return
    done
    return 1
}
