/**
 * The Maven plugin of JP (goal prefix {@code jp}): {@link org.jpprof.maven.InstrumentMojo
 * jp:instrument} and {@link org.jpprof.maven.InstrumentTestMojo jp:instrument-test} instrument the
 * compiler output and make Surefire run the tests on it with JP's runtime,
 * {@link org.jpprof.maven.ReportMojo jp:report} renders the profiles, and
 * {@link org.jpprof.maven.IdeMojo jp:ide} prints an IDE run configuration. The engine does the
 * work, through the {@code org.jpprof.engine} facade; the goals only wire. See docs/maven.md.
 */
package org.jpprof.maven;
