package org.jpprof.junit;

import org.junit.runner.Description;
import org.junit.runner.notification.RunListener;

/**
 * Gives each JUnit 4 test ({@code com.acme.FooTest#works()}) and, from JUnit 4.13, each test class
 * its own context in the profile, for runners that take a {@link RunListener} without the tests
 * changing: Maven Surefire's JUnit 4 provider, with the {@code listener} property (see
 * docs/maven.md); and every notifier of a hooked junit jar ({@link JUnit4Hook}). JUnit notifies
 * it on the thread that runs the test, before its set-up and after its tear-down; JUnit before
 * 4.13 has no class notifications, so class set-up stays outside.
 */
@RunListener.ThreadSafe
public final class JUnit4Listener extends RunListener {
    @Override
    public void testSuiteStarted(Description description) {
        String id = classId(description);
        if (id != null) JpRuntime.begin(id);
    }

    @Override
    public void testSuiteFinished(Description description) {
        String id = classId(description);
        if (id != null) JpRuntime.end(id);
    }

    @Override
    public void testStarted(Description description) {
        String id = testId(description);
        if (id != null) JpRuntime.begin(id);
    }

    @Override
    public void testFinished(Description description) {
        String id = testId(description);
        if (id != null) JpRuntime.end(id);
    }

    /** The class of a class's suite; null for other suites (a run's, a parameter set's). */
    private static String classId(Description description) {
        Class<?> testClass = description.getTestClass();
        return testClass != null && testClass.getName().equals(description.getDisplayName()) ? testClass.getName() : null;
    }

    private static String testId(Description description) {
        String method = description.getMethodName();
        return method == null ? null : description.getClassName() + '#' + method + "()";
    }
}
