/**
 * The Gradle plugin {@code org.jpprof.jp}: {@link org.jpprof.gradle.JpPlugin} wires the tasks
 * ({@link org.jpprof.gradle.JpInstrument}, {@code jpProfileTest}, {@link org.jpprof.gradle.JpReport},
 * {@link org.jpprof.gradle.JpIdeSetup}) to the {@code jp { }} block
 * ({@link org.jpprof.gradle.JpExtension}). The work itself is the engine's, reached through the
 * facade in {@code org.jpprof.engine}. See docs/gradle.md.
 */
package org.jpprof.gradle;
