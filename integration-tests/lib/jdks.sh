# The JDKs the suites use besides the default one, for the scripts in bash: each function runs
# integration-tests/lib/jptest/jdks.py, which says how it searches. Sourced.
# shellcheck shell=bash

_jdks_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
_jdks() { PYTHONPATH=$_jdks_lib python3 -m jptest.jdks "$@"; }

# jdk_version JDK-HOME: the JAVA_VERSION of its release file.
jdk_version() { _jdks version "$1"; }
# find_jdk MAJOR CANDIDATE...: prints the first candidate that is a JDK (with javac) of that major
# version; fails when none is.
find_jdk() { _jdks find "$@"; }
# find_jdk17: prints the home of a JDK 17 with its jmods (JAVA_HOME first, then Debian's paths).
find_jdk17() { _jdks jdk17; }
# find_temurin25: prints the home of a JDK 25 with a full image (TEMURIN25_HOME first, then
# Debian's Temurin package paths); fails when there is none or TEMURIN25_HOME=none.
find_temurin25() { _jdks temurin25; }
