package org.jpprof.runtime;

/**
 * An agent: what the runtime calls to hand over threads' calling-context trees. Chosen with the
 * system property {@code jp.agent} (see docs/runtime.md).
 *
 * <p>Contract: a thread's tree is changed only by that thread. An agent may read or reset a
 * thread's tree only from that thread's own {@link #report} call; it may read the trees of
 * terminated threads, and, best effort, any tree at JVM exit. Agents must not be instrumented.
 */
public interface Profiler {
    /**
     * A thread runs instrumented code for the first time.
     *
     * @return the number of bytecodes to run before the first {@link #report} for this thread
     */
    long register(Thread thread, RC root);

    /**
     * Called on the thread itself once its activation counter has run out.
     *
     * @param current the thread's innermost active context
     * @return the number of bytecodes to run before the next report
     */
    long report(RC root, IC current);
}
