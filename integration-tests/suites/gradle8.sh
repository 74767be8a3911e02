#!/usr/bin/env bash
# Gradle 8 suite: the checks of suites/gradle.sh on Gradle 8.11.1 (integration-tests/gradle8/gradle,
# fetched from Maven Central and cached on first use; see docs/gradle-8-harness.md), less those
# that need Debian's Gradle or a daemon, plus the checks of a modern Gradle (step 9 there).
JP_GRADLE_SUITE=gradle8 exec bash "$(dirname "${BASH_SOURCE[0]}")/gradle.sh" "$@"
