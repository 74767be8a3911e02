package org.jpprof.runtime;

import java.nio.file.Path;

/** What a program (or a test harness) may call on JP at run time. */
public final class JP {
    private JP() {}

    /**
     * Writes the profile now, as the default agent does at exit: finished threads and the
     * running ones as they are.
     *
     * @return the file written, or null when the default agent is not in use or the file could
     *     not be written (the reason went to stderr)
     */
    public static Path writeProfile() {
        Agents.profiler();
        DefaultAgent agent = DefaultAgent.instance;
        return agent == null ? null : agent.write();
    }
}
