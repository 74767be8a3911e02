package org.jpprof.runtime;

import java.io.File;
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
 * The built-in agent: merges every thread's tree into one profile, written at JVM exit (the
 * shutdown hook {@link Agents} installs) and on demand ({@link JP#writeProfile()}).
 *
 * <p>Threads are held weakly. Once a thread has been collected its tree is merged into the
 * finished-threads tree and dropped, so that millions of short-lived threads do not grow memory
 * without bound: the finished tree has one node per distinct calling context.
 */
final class DefaultAgent implements Profiler {
    private final long granularity;
    /** {@code jp.output} as given, {@code %p} not yet replaced. */
    private final String output;
    private final String start = Instant.now().toString();
    private final ReferenceQueue<Thread> collected = new ReferenceQueue<Thread>();
    private final Set<Registration> live = ConcurrentHashMap.newKeySet();
    /** The trees of collected threads. Guarded by this. */
    private final ProfileTree finished = new ProfileTree();
    /** Threads registered so far. Guarded by this. */
    private long threads;

    /** A thread, weakly, with its root. */
    private static final class Registration extends WeakReference<Thread> {
        final RC root;

        Registration(Thread thread, RC root, ReferenceQueue<Thread> queue) {
            super(thread, queue);
            this.root = root;
        }
    }

    DefaultAgent(long granularity, String output) {
        this.granularity = granularity;
        this.output = output;
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

    /** Threads registered and not yet collected (after merging those that were). */
    synchronized int running() {
        mergeCollected();
        return live.size();
    }

    /**
     * Merges the trees of collected threads. A thread object is collected only once the thread
     * has ended, so nothing changes those trees any more. Guarded by this.
     */
    private void mergeCollected() {
        for (Object ref; (ref = collected.poll()) != null;) {
            Registration registration = (Registration) ref;
            if (live.remove(registration)) {
                finished.add(registration.root);
            }
        }
    }

    /**
     * Writes the profile: finished threads and, as they are now (best effort, they are not
     * stopped), the threads still running.
     *
     * @return the file written, or null when it could not be written (the reason went to stderr)
     */
    synchronized Path write() {
        Path target = null;
        try {
            target = outputPath(output);
            mergeCollected();
            ProfileTree tree = new ProfileTree();
            tree.add(finished);
            List<Registration> running = new ArrayList<Registration>(live);
            for (Registration registration : running) {
                tree.add(registration.root);
            }
            ProfileWriter.write(tree, meta(), target);
            return target;
        } catch (Exception | LinkageError e) {
            Agents.warn("cannot write the profile to " + (target == null ? output : target) + ": " + e);
            return null;
        }
    }

    /** Guarded by this. */
    private Map<String, String> meta() {
        Map<String, String> meta = new LinkedHashMap<String, String>();
        meta.put("agent", "default");
        meta.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        meta.put("bba", MID.analyses());
        meta.put("threads", Long.toString(threads));
        meta.put("start", start);
        meta.put("end", Instant.now().toString());
        meta.put("pid", pid());
        String command = System.getProperty("sun.java.command");
        if (command != null && !command.isEmpty()) meta.put("command", command);
        return meta;
    }

    /** {@code output} with {@code %p} the pid; a directory gets a file name of its own. */
    static Path outputPath(String output) {
        String pid = pid();
        String name = output.replace("%p", pid);
        Path path = Paths.get(name);
        if (name.endsWith("/") || name.endsWith(File.separator) || Files.isDirectory(path)) {
            return path.resolve("jp-" + pid + "-" + System.currentTimeMillis() + ".jpprof");
        }
        return path;
    }

    private static String pid;

    /** The process id: ProcessHandle from Java 9, else the runtime bean's {@code pid@host}. */
    static synchronized String pid() {
        if (pid == null) {
            try {
                // Reflection because the runtime is compiled for Java 8; it spares loading JMX.
                Class<?> handle = Class.forName("java.lang.ProcessHandle");
                Object current = handle.getMethod("current").invoke(null);
                pid = handle.getMethod("pid").invoke(current).toString();
            } catch (ReflectiveOperationException | RuntimeException e) {
                String name = ManagementFactory.getRuntimeMXBean().getName();
                int at = name.indexOf('@');
                pid = at > 0 ? name.substring(0, at) : name;
            }
        }
        return pid;
    }
}
