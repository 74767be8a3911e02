package org.jpprof.runtime;

/**
 * Whether new activations are recorded: {@link JP#start()} and {@link JP#stop()}, and
 * {@code jp.start=paused} to begin stopped.
 *
 * <p>What counts is decided when a method is entered: an activation that began while recording
 * is counted whole (its call and every bytecode it runs, also after a stop), one that began while
 * stopped is not counted at all, and what it calls once recording is on counts under the nearest
 * counted activation below it, as calls from uninstrumented code do. So a window is exact: it
 * holds exactly the activations that began in it, with their callees.
 */
final class Recording {
    private Recording() {}

    /**
     * Read at every entry: volatile so that a thread in a compiled loop sees a change made by
     * another thread (a plain load on the usual hardware).
     */
    static volatile boolean on = initially(Agents.property("jp.start", "recording"));

    /** Whether {@code jp.start} (trimmed, defaulted) says to record from the start. */
    static boolean initially(String start) {
        switch (start) {
            case "recording":
                return true;
            case "paused":
                return false;
            default:
                Agents.warn("jp.start=" + start + " is neither recording nor paused; recording");
                return true;
        }
    }
}
