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
