package org.jpprof.runtime;

import java.nio.file.Path;

/**
 * What a program (or a test harness) may call on JP at run time; the same operations are a JMX
 * MBean with {@code jp.jmx=true} ({@link Control}).
 */
public final class JP {
    private JP() {}

    /**
     * Records from now on: every method entered from now on is counted, whole (see
     * {@link #stop()}). Recording is on from the start unless {@code jp.start=paused}.
     */
    public static void start() {
        Recording.on = true;
    }

    /**
     * Stops recording: methods entered from now on are not counted, and cost one check each. The
     * activations that began while recording are still counted to their end, so a window from
     * {@link #start()} to {@code stop()} holds exactly the activations that began in it.
     */
    public static void stop() {
        Recording.on = false;
    }

    /** Whether methods entered now are counted. */
    public static boolean isRecording() {
        return Recording.on;
    }

    /**
     * Drops what was counted so far, with the default agent (and the periodic one): the work of
     * threads that ended at once, and each running thread's counts at its next method entry or
     * loop header, before it counts anything more; until then they are left out of what is
     * written. Activations running at the reset keep their contexts, and what they run after it
     * counts, unlike a window ({@link #start()}), whose edges are exact. Nothing with another agent.
     */
    public static void reset() {
        Profiler agent = Agents.profiler();
        if (agent instanceof DefaultAgent) ((DefaultAgent) agent).reset();
    }

    /**
     * Writes the profile now, as the default agent does at exit: finished threads and the
     * running ones as they are.
     *
     * <p>The trees of threads still running are read as they are, without stopping them: their
     * counts are a best-effort snapshot. Never throws.
     *
     * @return the file written, or null when the default agent is not in use or the file could
     *     not be written (the reason went to stderr)
     */
    public static Path writeProfile() {
        Profiler agent = Agents.profiler();
        return agent instanceof DefaultAgent ? ((DefaultAgent) agent).write() : null;
    }
}
