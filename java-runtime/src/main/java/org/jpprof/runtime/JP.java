package org.jpprof.runtime;

import java.nio.file.Path;

/** What a program (or a test harness) may call on JP at run time. */
public final class JP {
    private JP() {}

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
