package org.jpprof.runtime;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The built-in agent: merges every thread's tree into one profile, written at JVM exit (and on
 * demand, {@link JP#writeProfile()}) to the path of {@code jp.output}.
 *
 * <p>Threads are held weakly. Once a thread has been collected its tree is merged into the
 * finished-threads tree and dropped, so that millions of short-lived threads do not grow memory
 * without bound.
 */
final class DefaultAgent implements Profiler {
    /** The instance, once created, for {@link JP#writeProfile()}. */
    static volatile DefaultAgent instance;

    private final long granularity;
    private final String start = Instant.now().toString();
    private final ReferenceQueue<Thread> collected = new ReferenceQueue<Thread>();
    private final Set<Registration> live = ConcurrentHashMap.newKeySet();
    /** The trees of collected threads. Guarded by this. */
    private final ProfileTree finished = new ProfileTree();
    private long threads;

    /** A thread, weakly, with its root. */
    private static final class Registration extends WeakReference<Thread> {
        final RC root;

        Registration(Thread thread, RC root, ReferenceQueue<Thread> queue) {
            super(thread, queue);
            this.root = root;
        }
    }

    DefaultAgent(long granularity) {
        this.granularity = granularity;
        instance = this;
        Thread hook = new Thread(new Runnable() {
            @Override
            public void run() {
                write();
            }
        }, "jp-profile-writer");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down: nothing will run long enough to be profiled.
        }
    }

    @Override
    public long register(Thread thread, RC root) {
        live.add(new Registration(thread, root, collected));
        synchronized (this) {
            threads++;
            mergeCollected();
        }
        return granularity;
    }

    @Override
    public long report(RC root, IC current) {
        return granularity;
    }

    /** Guarded by this. */
    private void mergeCollected() {
        for (Object ref; (ref = collected.poll()) != null;) {
            Registration registration = (Registration) ref;
            if (live.remove(registration)) {
                finished.add(registration.root);
            }
        }
    }

    /**
     * Writes the profile: finished threads and, as they are now, the threads still running.
     *
     * @return the file written, or null when it could not be written (the reason went to stderr)
     */
    synchronized Path write() {
        mergeCollected();
        ProfileTree tree = new ProfileTree();
        tree.add(finished);
        List<Registration> running = new ArrayList<Registration>(live);
        for (Registration registration : running) {
            tree.add(registration.root);
        }
        Map<String, String> meta = new LinkedHashMap<String, String>();
        meta.put("agent", "default");
        meta.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        meta.put("bba", MID.analyses());
        meta.put("threads", Long.toString(threads));
        meta.put("start", start);
        meta.put("end", Instant.now().toString());
        meta.put("pid", pid());
        String command = System.getProperty("sun.java.command");
        if (command != null) meta.put("command", command);
        Path target = outputPath();
        try {
            ProfileWriter.write(tree, meta, target);
            return target;
        } catch (IOException | RuntimeException e) {
            Agents.warn("cannot write the profile to " + target + ": " + e);
            return null;
        }
    }

    /** {@code jp.output}, with {@code %p} the pid; a directory gets a file name of its own. */
    static Path outputPath() {
        String pid = pid();
        String output = System.getProperty("jp.output", "jp-%p.jpprof").replace("%p", pid);
        Path path = Paths.get(output);
        if (output.endsWith("/") || output.endsWith(File.separator) || Files.isDirectory(path)) {
            return path.resolve("jp-" + pid + "-" + System.currentTimeMillis() + ".jpprof");
        }
        return path;
    }

    /** The process id, from {@code pid@host} (Java 8 has no ProcessHandle). */
    private static String pid() {
        String name = ManagementFactory.getRuntimeMXBean().getName();
        int at = name.indexOf('@');
        return at > 0 ? name.substring(0, at) : name;
    }
}
