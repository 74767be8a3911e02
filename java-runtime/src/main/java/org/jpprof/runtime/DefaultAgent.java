package org.jpprof.runtime;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The built-in agent: merges every thread's tree into one profile, written at JVM exit (the
 * shutdown hook {@link Agents} installs) and on demand ({@link JP#writeProfile()}).
 *
 * <p>Memory stays bounded however many threads run. A thread's tree is handed over, to be merged
 * into the tree of finished work, when the thread's outermost instrumented method returns (the
 * 1st, 2nd, 4th, 8th... time, so that a pool thread that returns after every task hands over
 * rarely), and when another thread takes the slot of an ended thread. The agent finds running
 * threads' roots in the slots, and the others (threads whose slot a live thread held) in a map
 * that holds their threads weakly, from their first count to the hand-over; what such a thread
 * counted after its last hand-over is merged once the thread is collected.
 * Handing over never waits for the lock (the threads may be virtual threads by the million): a
 * tree that finds the lock taken waits in a queue that whoever gets the lock next merges.
 *
 * <p>Work done during shutdown, in other shutdown hooks above all, is in the profile however the
 * hooks interleave: a thread that returns to its root three times or more during shutdown hands
 * its tree over at every return, and every tree handed over after the profile was written at
 * exit writes the profile again, to the same file.
 */
final class DefaultAgent implements Profiler {
    private final long granularity;
    /** {@code jp.output} as given, {@code %p} not yet replaced. */
    private final String output;
    private final String start = Instant.now().toString();
    /** Trees handed over (detached from their roots) and not merged yet. */
    private final Queue<IC> handedOver = new ConcurrentLinkedQueue<IC>();
    /** Guards {@link #finished} and writing. */
    private final ReentrantLock lock = new ReentrantLock();
    /** The merged trees of finished work. Guarded by lock. */
    private final ProfileTree finished = new ProfileTree();
    /**
     * Handed-over trees merged by method identity, the cheap way, before they go to
     * {@link #finished} by frame name: at every write, and every {@link #BATCH} trees, so that
     * it keeps few identifiers of unloaded classes. Guarded by lock.
     */
    private IC batch = new IC(null, null);
    private int batched;
    private final ArrayDeque<IC> mergeWork = new ArrayDeque<IC>();
    private static final int BATCH = 1 << 16;
    /** Roots that are in no slot, with their threads, weakly. */
    private final Map<RC, Registration> unslotted = new ConcurrentHashMap<RC, Registration>();
    private final ReferenceQueue<Thread> collected = new ReferenceQueue<Thread>();
    /** Threads registered so far. */
    private final LongAdder threads = new LongAdder();
    /** Set when the write at exit starts. */
    private volatile boolean exiting;
    /** Where the profile was written at exit, once it was: later work writes it again. */
    private volatile Path writtenAtExit;

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
        threads.increment();
        root.foldEveryReturn = exiting;
        if (!root.inSlot) {
            unslotted.put(root, new Registration(thread, root, collected));
        }
        return granularity;
    }

    @Override
    public long report(RC root, IC current) {
        return granularity;
    }

    /**
     * {@code root}'s thread returned from its outermost instrumented method, on that thread:
     * no method of the thread holds a node of its tree, which can be handed over.
     */
    void returned(RC root) {
        int returns = ++root.returns;
        if (returns == 3 && !root.foldEveryReturn) {
            // The first return not handed over by default. A thread that returns this often
            // during shutdown (a shutdown hook, most likely) hands over at every return instead.
            // Asked only here: the answer takes a lock that threads returning once need not take.
            root.foldEveryReturn = Agents.shuttingDown();
        }
        if ((root.foldEveryReturn || (returns & (returns - 1)) == 0) && root.hasChildren()) {
            handOver(root);
            if (!root.inSlot) {
                unslotted.remove(root); // until it counts again: see resumed
            }
        }
    }

    /** {@code root}, in no slot, counts again after its tree was handed over: tracked again. */
    void resumed(RC root) {
        if (!unslotted.containsKey(root)) {
            unslotted.put(root, new Registration(Thread.currentThread(), root, collected));
        }
    }

    /** {@code root}, of an ended thread, left its slot: nothing changes its tree any more. */
    void evicted(RC root) {
        if (root.hasChildren()) {
            handOver(root);
        }
    }

    /**
     * Merges {@code root}'s tree, and empties it, if the lock is free; queues it for whoever gets
     * the lock next otherwise. During exit it waits for the lock instead, and writes the profile
     * again once it was written: a write that missed this tree (queued after it looked) is then
     * followed by one that has it.
     */
    private void handOver(RC root) {
        if (!exiting && lock.tryLock()) {
            try {
                mergeHandedOver();
                merge(root);
                root.dropChildren();
            } finally {
                lock.unlock();
            }
            return;
        }
        handedOver.add(root.detachChildren());
        if (exiting) {
            lock.lock();
            try {
                mergeHandedOver();
                Path target = writtenAtExit;
                if (target != null) {
                    writeTo(target);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Merges the queued trees, and those of collected threads that had no slot: a thread object
     * is collected only once the thread has ended, so nothing changes those trees any more.
     * Under lock.
     */
    private void mergeHandedOver() {
        for (IC tree; (tree = handedOver.poll()) != null;) {
            merge(tree);
        }
        for (Object ref; (ref = collected.poll()) != null;) {
            Registration registration = (Registration) ref;
            if (unslotted.remove(registration.root, registration)) {
                merge(registration.root);
                registration.root.dropChildren();
            }
        }
    }

    /** Under lock. */
    private void merge(IC tree) {
        batch.addTree(tree, mergeWork);
        if (++batched == BATCH) flushBatch();
    }

    /** Under lock. */
    private void flushBatch() {
        finished.add(batch);
        batch = new IC(null, null);
        batched = 0;
    }

    /** The roots of this agent whose counts are not merged yet (after merging what can be). */
    int running() {
        lock.lock();
        try {
            mergeHandedOver();
            int count = 0;
            for (RC root : roots()) {
                if (root.hasChildren()) count++;
            }
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** This agent's roots in the slots, then the others. */
    private List<RC> roots() {
        List<RC> roots = new ArrayList<RC>(unslotted.keySet());
        for (int i = 0; i < RC.SLOT_COUNT; i++) {
            RC root = RC.slotRoot(i);
            if (root != null && root.profiler() == this) roots.add(root);
        }
        return roots;
    }

    /** Writes the profile at JVM exit; work handed over later writes the same file again. */
    void writeAtExit() {
        exiting = true;
        lock.lock();
        try {
            writtenAtExit = write();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes the profile: finished work and, as they are now (best effort, they are not
     * stopped), the threads still running.
     *
     * @return the file written, or null when it could not be written (the reason went to stderr)
     */
    Path write() {
        Path target;
        try {
            target = outputPath(output);
        } catch (RuntimeException e) {
            Agents.warn("cannot write the profile to " + output + ": " + e);
            return null;
        }
        lock.lock();
        try {
            return writeTo(target);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Under lock. The queue is merged before the roots are read: a tree is queued only after it
     * left its root or slot, so no tree is counted twice.
     */
    private Path writeTo(Path target) {
        try {
            mergeHandedOver();
            flushBatch();
            ProfileTree tree = new ProfileTree();
            tree.add(finished);
            for (RC root : roots()) {
                tree.add(root);
            }
            ProfileWriter.write(tree, meta(), target);
            return target;
        } catch (Exception | LinkageError e) {
            Agents.warn("cannot write the profile to " + target + ": " + e);
            return null;
        }
    }

    /** Under lock. */
    private Map<String, String> meta() {
        Map<String, String> meta = new LinkedHashMap<String, String>();
        meta.put("agent", "default");
        meta.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        meta.put("bba", MID.analyses());
        meta.put("threads", Long.toString(threads.sum()));
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
