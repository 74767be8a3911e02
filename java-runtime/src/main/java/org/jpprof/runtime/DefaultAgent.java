package org.jpprof.runtime;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The built-in agent: merges every thread's tree into one profile, written at JVM exit (the
 * shutdown hook {@link Agents} installs) and on demand ({@link JP#writeProfile()}).
 *
 * <p>Memory stays bounded however many threads run: a thread's tree is merged into the tree of
 * finished work, and dropped, when the thread's outermost instrumented method returns (the 1st,
 * 2nd, 4th, 8th... time, so that a pool thread that returns after every task merges rarely),
 * and otherwise once the thread has been collected. The finished tree has one node per distinct
 * calling context.
 *
 * <p>Work done during shutdown, in other shutdown hooks above all, is in the profile however the
 * hooks interleave: a thread that starts running instrumented code once the JVM shuts down hands
 * its tree over at every return to its root, and every tree handed over after the profile was
 * written at exit writes the profile again, to the same file.
 */
final class DefaultAgent implements Profiler {
    private final long granularity;
    /** {@code jp.output} as given, {@code %p} not yet replaced. */
    private final String output;
    private final String start = Instant.now().toString();
    private final ReferenceQueue<Thread> collected = new ReferenceQueue<Thread>();
    /** Roots whose counts are not yet in {@link #finished}, with their threads. Guarded by this. */
    private final Map<RC, Registration> live = new IdentityHashMap<RC, Registration>();
    /** The merged trees of threads that returned to their roots or were collected. Guarded by this. */
    private final ProfileTree finished = new ProfileTree();
    /** Threads registered so far. Guarded by this. */
    private long threads;
    /** Where the profile was written at exit, once it was: later work writes it again. Guarded by this. */
    private Path writtenAtExit;

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
        boolean late = Agents.shuttingDown();
        synchronized (this) {
            threads++;
            mergeCollected();
            live.put(root, new Registration(thread, root, collected));
            root.foldEveryReturn = late || writtenAtExit != null;
        }
        return granularity;
    }

    @Override
    public long report(RC root, IC current) {
        return granularity;
    }

    /**
     * {@code root}'s thread returned from its outermost instrumented method, on that thread.
     * Merging its tree now bounds the memory of short-lived threads without waiting for the GC.
     */
    void returned(RC root) {
        int returns = ++root.returns;
        if (root.foldEveryReturn || (returns & (returns - 1)) == 0) {
            fold(root);
        }
    }

    /** {@code root}'s tree gets counts again after {@link #fold}: its thread is tracked again. */
    synchronized void resumed(RC root) {
        if (!live.containsKey(root)) {
            live.put(root, new Registration(Thread.currentThread(), root, collected));
        }
    }

    /**
     * Merges {@code root}'s tree into the finished tree and empties it. On the root's own thread,
     * while no method of that thread holds a node (it is back at its root).
     */
    private synchronized void fold(RC root) {
        if (live.remove(root) == null) {
            return; // nothing counted since the last fold
        }
        finished.add(root);
        root.dropChildren();
        if (writtenAtExit != null) {
            writeTo(writtenAtExit);
        }
    }

    /** Threads whose counts are not merged yet (after merging those of collected threads). */
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
            if (live.get(registration.root) == registration) {
                live.remove(registration.root);
                finished.add(registration.root);
            }
        }
    }

    /** Writes the profile at JVM exit; work handed over later writes the same file again. */
    synchronized void writeAtExit() {
        writtenAtExit = write();
    }

    /**
     * Writes the profile: finished threads and, as they are now (best effort, they are not
     * stopped), the threads still running.
     *
     * @return the file written, or null when it could not be written (the reason went to stderr)
     */
    synchronized Path write() {
        Path target;
        try {
            target = outputPath(output);
        } catch (RuntimeException e) {
            Agents.warn("cannot write the profile to " + output + ": " + e);
            return null;
        }
        return writeTo(target);
    }

    /** Guarded by this. */
    private Path writeTo(Path target) {
        try {
            mergeCollected();
            ProfileTree tree = new ProfileTree();
            tree.add(finished);
            for (RC root : live.keySet()) {
                tree.add(root);
            }
            ProfileWriter.write(tree, meta(), target);
            return target;
        } catch (Exception | LinkageError e) {
            Agents.warn("cannot write the profile to " + target + ": " + e);
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
