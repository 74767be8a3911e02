package org.jpprof.junit;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Gives each test class, test and test invocation that JUnit Platform runs (Jupiter, Vintage and
 * other engines) its own context in the profile. The Launcher loads it by itself from
 * META-INF/services when the jar is on the test class path, and notifies it on the thread that
 * runs the test, before its set-up and after its tear-down.
 */
public final class JUnitPlatformListener implements TestExecutionListener {
    private volatile TestPlan plan;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
    }

    @Override
    public void executionStarted(TestIdentifier identifier) {
        String id = testId(identifier);
        if (id != null) JpRuntime.begin(id);
    }

    @Override
    public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
        String id = testId(identifier);
        if (id != null) JpRuntime.end(id);
    }

    private String testId(TestIdentifier identifier) {
        TestPlan current = plan;
        return current == null ? null : TestIds.of(identifier, current);
    }
}
