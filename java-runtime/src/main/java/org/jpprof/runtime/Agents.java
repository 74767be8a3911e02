package org.jpprof.runtime;

import java.lang.reflect.InvocationTargetException;

/** The agent of this JVM, chosen by the system property {@code jp.agent}. */
final class Agents {
    private Agents() {}

    /** Bytecodes between two reports per thread, unless {@code jp.granularity} says otherwise. */
    static final long DEFAULT_GRANULARITY = 100_000_000L;
    /** Where the default agent writes, unless {@code jp.output} says otherwise. */
    static final String DEFAULT_OUTPUT = "jp-%p.jpprof";
    /** The periodic agent's milliseconds between snapshots when neither of its triggers is set. */
    static final long DEFAULT_PERIOD_MILLIS = 1000;

    /**
     * Initialised on first use, by the first thread that runs instrumented code. Only this
     * instance gets the shutdown hook: agents that tests create write only when asked.
     */
    private static final class Holder {
        static final Profiler PROFILER = install(load(System.getProperty("jp.agent", "default")));
    }

    static Profiler profiler() {
        return Holder.PROFILER;
    }

    /** The agent named {@code name}: a built-in name or a class name. */
    static Profiler load(String name) {
        String trimmed = name.trim();
        switch (trimmed) {
            case "default":
            case "":
                return defaultAgent();
            case "periodic":
                return periodicAgent();
            case "none":
                return new NoAgent();
            default:
                String problem;
                try {
                    Class<?> type = Class.forName(trimmed, true, ClassLoader.getSystemClassLoader());
                    if (Profiler.class.isAssignableFrom(type)) {
                        return (Profiler) type.getConstructor().newInstance();
                    }
                    problem = "does not implement " + Profiler.class.getName();
                } catch (ClassNotFoundException e) {
                    problem = "no such class";
                } catch (NoSuchMethodException e) {
                    problem = "has no public no-argument constructor";
                } catch (InvocationTargetException e) {
                    problem = "its constructor threw " + e.getCause();
                } catch (ReflectiveOperationException | LinkageError e) {
                    problem = e.toString();
                }
                warn("agent " + trimmed + ": " + problem + "; using the default agent");
                return defaultAgent();
        }
    }

    private static DefaultAgent defaultAgent() {
        return new DefaultAgent(granularity(), property("jp.output", DEFAULT_OUTPUT));
    }

    /**
     * {@code jp.periodic.bytecodes} and {@code jp.periodic.millis}, each optional; with neither,
     * a snapshot every {@link #DEFAULT_PERIOD_MILLIS} milliseconds.
     */
    private static PeriodicAgent periodicAgent() {
        long bytecodes = positive("jp.periodic.bytecodes", 0);
        long millis = positive("jp.periodic.millis", 0);
        if (bytecodes == 0 && millis == 0) millis = DEFAULT_PERIOD_MILLIS;
        return new PeriodicAgent(granularity(), property("jp.output", DEFAULT_OUTPUT), bytecodes, millis);
    }

    /**
     * Writes the default agent's profile at JVM exit, starts the periodic agent's timer, and
     * registers the MBean when asked.
     */
    private static Profiler install(Profiler profiler) {
        if (profiler instanceof DefaultAgent) {
            final DefaultAgent agent = (DefaultAgent) profiler;
            Thread hook = new Thread(new Runnable() {
                @Override
                public void run() {
                    agent.writeAtExit();
                }
            }, "jp-profile-writer");
            try {
                Runtime.getRuntime().addShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is already shutting down: nothing will run long enough to be profiled.
            }
        }
        if (profiler instanceof PeriodicAgent) {
            ((PeriodicAgent) profiler).startTimer();
        }
        Control.registerIfAsked();
        return profiler;
    }

    /** Never started nor added: only removed, to learn whether the JVM is shutting down. */
    private static final Thread PROBE = new Thread("jp-shutdown-probe");
    private static volatile boolean shutdownSeen;

    /**
     * Whether the JVM is shutting down, from the moment the shutdown hooks start: removing a
     * hook, even one never added, is refused from then on (the only API that tells).
     */
    static boolean shuttingDown() {
        if (!shutdownSeen) {
            try {
                Runtime.getRuntime().removeShutdownHook(PROBE);
            } catch (IllegalStateException e) {
                shutdownSeen = true;
            } catch (SecurityException e) {
                // not allowed to tell: counted as running
            }
        }
        return shutdownSeen;
    }

    /** {@code jp.granularity}: bytecodes between two reports per thread. */
    static long granularity() {
        return positive("jp.granularity", DEFAULT_GRANULARITY);
    }

    /**
     * The system property {@code key} as a positive number ({@code _} may separate digits);
     * {@code otherwise} when it is unset, or not such a number, which stderr then says.
     */
    static long positive(String key, long otherwise) {
        String value = property(key, null);
        if (value == null) return otherwise;
        try {
            long number = Long.parseLong(value.replace("_", ""));
            if (number > 0) return number;
        } catch (NumberFormatException e) {
            // reported below
        }
        warn(key + "=" + value + " is not a positive number; " + (otherwise > 0 ? "using " + otherwise : "ignored"));
        return otherwise;
    }

    /** A system property, trimmed; {@code otherwise} when it is unset or blank. */
    static String property(String key, String otherwise) {
        String value = System.getProperty(key);
        return value == null || value.trim().isEmpty() ? otherwise : value.trim();
    }

    private static volatile boolean failureReported;

    /** An agent threw: said once, and the thread's reports stop. */
    static void failed(Throwable e) {
        if (!failureReported) {
            failureReported = true;
            warn("the agent failed and stops reporting for this thread: " + e);
        }
    }

    static void warn(String message) {
        System.err.println("jp: " + message);
    }

    /** {@code jp.agent=none}: counts, never reports, never writes. */
    private static final class NoAgent implements Profiler {
        @Override
        public long register(Thread thread, RC root) {
            return Long.MAX_VALUE;
        }

        @Override
        public long report(RC root, IC current) {
            return Long.MAX_VALUE;
        }
    }
}
