package org.jpprof.runtime;

/**
 * An agent: what the runtime calls to hand over threads' calling-context trees. Chosen with the
 * system property {@code jp.agent} (see docs/runtime.md); a custom agent is a public class with a
 * public no-argument constructor, loaded by the system class loader.
 *
 * <p>Contract. A thread's tree is changed only by that thread, without locks, so an agent may
 * read or reset a thread's tree only from that thread's own {@link #report} call. The exceptions
 * are the trees of threads that have terminated, which nothing changes any more, and, best
 * effort, any tree at JVM exit. A tree is read from its root down with {@link IC#children()}.
 * Resetting means setting {@link IC#calls} and {@link IC#bytecodes} to zero: nodes are never
 * removed, because the methods running on the thread hold theirs.
 *
 * <p>An agent must not be instrumented. It runs on the profiled threads: what instrumented code
 * it runs counts in the thread's tree but triggers no report, and an agent that throws is
 * reported on stderr and is not called again for that thread.
 */
public interface Profiler {
    /**
     * A thread runs instrumented code for the first time. Called on that thread, after its root
     * is reachable through {@link RC#current()}.
     *
     * @return the number of bytecodes to run before the first {@link #report} for this thread
     *     (values below 1 count as 1)
     */
    long register(Thread thread, RC root);

    /**
     * Called on the thread itself once its activation counter has run out, at a method entry
     * or a loop header.
     *
     * @param current the thread's innermost active context (at a method entry, its caller's: the
     *     report runs before the call is counted)
     * @return the number of bytecodes to run before the next report (values below 1 count as 1)
     */
    long report(RC root, IC current);
}
