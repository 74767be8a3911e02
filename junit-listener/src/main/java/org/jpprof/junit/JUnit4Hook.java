package org.jpprof.junit;

import org.junit.runner.notification.RunNotifier;

/**
 * Gives the tests of every JUnit 4 {@link RunNotifier} their own contexts, for runners that take
 * no listener of one's own: Gradle's JUnit 4 test executor builds its notifier with only Gradle's
 * listener. JP's Gradle plugin runs those tests with a copy of junit's jar whose
 * {@code RunNotifier} constructors end with {@code JUnit4Hook.attach(this)} (docs/gradle.md).
 * A test that another listener reports as well (Vintage, Surefire's {@link JUnit4Listener}) still
 * gets one context: {@link JpRuntime} counts it once.
 */
public final class JUnit4Hook {
    private JUnit4Hook() {}

    /**
     * Adds a {@link JUnit4Listener} to a notifier that was just built.
     *
     * @param notifier the new notifier
     */
    public static void attach(RunNotifier notifier) {
        notifier.addListener(new JUnit4Listener());
    }
}
