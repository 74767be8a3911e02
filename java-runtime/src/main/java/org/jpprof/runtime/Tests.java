package org.jpprof.runtime;

/**
 * Marks the test that the calling thread runs, so that the profile gives every test a top-level
 * context of its own, with frame name {@code [test] <test id>}. JP's test listeners call it; a
 * test harness of one's own may too (see docs/runtime.md).
 *
 * <p>{@link #begin} makes the test's context the thread's current context: what the thread runs
 * until {@link #end} (set-up, the test, tear-down) counts under it. Tests nest: a test class's
 * context begun before its tests' contexts is current again after each of them ends, so that what
 * runs for the class as a whole counts under it. Every test context is at top level all the same.
 * Work that the test hands to other threads counts under those threads' own roots.
 *
 * <p>Test ids are the convention's ({@code com.acme.ParserTest},
 * {@code com.acme.ParserTest#parses(String) > [2] "a,b"}): a context per id, which adds up over
 * the runs of the same test. Both methods are cheap, never throw, and ignore a null id.
 */
public final class Tests {
    private Tests() {}

    /** The calling thread starts running {@code testId}. */
    public static void begin(String testId) {
        if (testId != null) {
            RC.current().beginTest(MID.test(testId));
        }
    }

    /**
     * The calling thread is done with {@code testId}; so are the tests it began within it and did
     * not end. Ignored when {@code testId} was not begun on this thread.
     */
    public static void end(String testId) {
        if (testId != null) {
            RC.current().endTest(MID.test(testId));
        }
    }
}
