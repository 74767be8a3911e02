package org.jpprof.runtime;

/** The agent of this JVM, chosen by the system property {@code jp.agent}. */
final class Agents {
    private Agents() {}

    /** Bytecodes between two reports per thread, unless {@code jp.granularity} says otherwise. */
    static final long DEFAULT_GRANULARITY = 100_000_000L;

    /** Initialised on first use; null while that initialisation is under way on this thread. */
    private static final class Holder {
        static final Profiler PROFILER = load(System.getProperty("jp.agent", "default"));
    }

    static Profiler profiler() {
        return Holder.PROFILER;
    }

    /** The agent named {@code name}: a built-in name or a class name. */
    static Profiler load(String name) {
        switch (name.trim()) {
            case "default":
            case "":
                return new DefaultAgent(granularity());
            case "none":
                return new NoAgent();
            default:
                try {
                    Class<?> type = Class.forName(name.trim(), true, ClassLoader.getSystemClassLoader());
                    return (Profiler) type.getConstructor().newInstance();
                } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
                    warn("agent " + name + " cannot be used (" + e + "); using the default agent");
                    return new DefaultAgent(granularity());
                }
        }
    }

    /** {@code jp.granularity}: bytecodes between two reports per thread. */
    static long granularity() {
        String value = System.getProperty("jp.granularity");
        if (value == null) return DEFAULT_GRANULARITY;
        try {
            long granularity = Long.parseLong(value.trim().replace("_", ""));
            if (granularity > 0) return granularity;
        } catch (NumberFormatException e) {
            // reported below
        }
        warn("jp.granularity=" + value + " is not a positive number; using " + DEFAULT_GRANULARITY);
        return DEFAULT_GRANULARITY;
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
