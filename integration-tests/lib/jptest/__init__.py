"""Shared helpers of JP's integration suites, one module per job.

- `checks`: the PASS/FAIL/SKIP lines a suite prints (integration-tests/suites/README.md).
- `commands`: running a command with its output in a log (or under /usr/bin/time), and showing a
  log's end on failure.
- `build`: where the repository, the cache and the `jp` binary are; building jp and the runtime;
  the round-trip corpus; a directory made once in the cache; JP in a throwaway Maven repository.
- `jdks`: finding a JDK 17 with jmods and a Temurin 25.
- `surefire`: reading JUnit XML reports (Surefire's, Gradle's, the console launcher's).
- `plugin_checks`: the checks shared by the build-plugin suites (Maven's and Gradle's).
- `gradle_logs`: reading a Gradle build's output: the outcomes of its tasks.
- `gradle_suite`: the gradle and gradle8 suites' steps, the plugin in real Gradle builds.
- `folded`: reading folded profiles and comparing JP's with the counting oracle's.
- `oracle`: the counting oracle's agent, built and run; what the test programs say it counts.
- `roundtrip`: the summary line of `jp roundtrip`.
- `platforms`: what the cross suite reads from jp-dist and from EngineRun on each platform.
- `stats`: medians, spreads, ratios and geometric means of the benchmarks' timings.
- `jp_lines`: the summary lines of `jp instrument` and the Gradle plugin's jpInstrument, read back.

Standard library only: the suites run wherever `python3` is.
"""
