# The JDKs the suites use besides the default one. Sourced.

# jdk_version JDK-HOME: the JAVA_VERSION of its release file.
jdk_version() { sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$1/release" 2>/dev/null; }

# find_temurin25: prints the home of a JDK 25 with javac and a full image (TEMURIN25_HOME first,
# then Debian's Temurin package paths); fails when there is none or TEMURIN25_HOME=none.
find_temurin25() {
    local candidate
    [[ ${TEMURIN25_HOME:-} == none ]] && return 1
    for candidate in "${TEMURIN25_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25*; do
        [[ -n $candidate && -x $candidate/bin/javac && -x $candidate/bin/jimage && -f $candidate/lib/modules ]] || continue
        [[ $(jdk_version "$candidate") == 25* ]] && { echo "$candidate"; return; }
    done
    return 1
}
