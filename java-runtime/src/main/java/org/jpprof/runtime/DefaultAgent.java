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
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The built-in agent: merges every thread's tree into one profile, written at JVM exit (the
 * shutdown hook {@link Agents} installs) and on demand ({@link JP#writeProfile()}).
 *
 * <p>Memory stays bounded however many threads run. A thread's tree is handed over, to be merged
 * into the finished work of its thread group, when the thread's outermost instrumented method returns (the
 * 1st, 2nd, 4th, 8th... time, so that a pool thread that returns after every task hands over
 * rarely), and when another thread takes the slot of an ended thread. A thread that counts again
 * after handing its tree over takes its group's batch back as its tree: the same contexts are not
 * kept twice, once merged and once growing again. The agent finds running
 * threads' roots in the slots, and the others (threads whose slot a live thread held) in a map
 * that holds their threads weakly, from their first count to the hand-over; what such a thread
 * counted after its last hand-over is merged once the thread is collected.
 * Handing over never waits for the lock (the threads may be virtual threads by the million): a
 * tree that finds the lock taken waits in a queue that whoever gets the lock next merges.
 *
 * <p>The work of each thread group ({@link ThreadGroups}) is kept apart, from the hand-over to the
 * profile. The agent keeps at most {@link #MAX_GROUPS} groups, and puts the threads of any other
 * group in {@link ThreadGroups#OTHER}: memory stays bounded however threads are named.
 *
 * <p>Work done during shutdown, in other shutdown hooks above all, is in the profile however the
 * hooks interleave: a thread that returns to its root three times or more during shutdown hands
 * its tree over at every return, and every tree handed over after the profile was written at
 * exit writes the profile again, to the same file.
 *
 * <p>{@link PeriodicAgent} extends it with snapshots along the run, through the hooks
 * {@link #flushed} and {@link #wroteAtExit}.
 */
class DefaultAgent implements Profiler {
    private final long granularity;
    /** {@code jp.output} as given, {@code %p} not yet replaced. */
    private final String output;
    private final String start = Instant.now().toString();
    /** Trees handed over (detached from their roots) and not merged yet. */
    private final Queue<HandedOver> handedOver = new ConcurrentLinkedQueue<HandedOver>();
    /** Guards {@link #finished}, the groups' batches and writing. */
    final ReentrantLock lock = new ReentrantLock();
    /** The merged trees of finished work, per group. Guarded by lock. */
    private ProfileTree finished = new ProfileTree();
    /**
     * How often {@link #reset} ran. A root whose own count ({@link RC#resets}) is lower has counted
     * nothing since: its thread has entered no method and passed no loop header since the reset,
     * which asked it to report at once. Changed under lock.
     */
    private volatile int resets;
    /** Trees merged into the groups' batches since they last went to {@link #finished}. Guarded by lock. */
    private int batched;
    private final ArrayDeque<IC> mergeWork = new ArrayDeque<IC>();
    private static final int BATCH = 1 << 16;
    /** The most groups kept apart; the threads of any other group are {@link #otherThreads}. */
    static final int MAX_GROUPS = 256;
    /** The groups by name, at most {@link #MAX_GROUPS}. */
    private final ConcurrentHashMap<String, Group> groups = new ConcurrentHashMap<String, Group>();
    private final Group otherThreads = new Group(ThreadGroups.OTHER);
    /** Roots that are in no slot, with their threads, weakly. */
    private final Map<RC, Registration> unslotted = new ConcurrentHashMap<RC, Registration>();
    private final ReferenceQueue<Thread> collected = new ReferenceQueue<Thread>();
    /** Set when the write at exit starts. */
    volatile boolean exiting;
    /** Where the profile was written at exit, once it was: later work writes it again. */
    private volatile Path writtenAtExit;
    /**
     * Memory held for the write at exit and for saying why counts were lost, freed when one of
     * them needs it: a program that fills the heap leaves the agent nothing otherwise.
     */
    private byte[] reserve = new byte[RESERVE];
    static final int RESERVE = 1 << 20;
    /** Why the profile lacks counts (metadata {@code incomplete}), or null while it has them all. */
    private volatile String incomplete;

    /** A thread group: how many threads it has had, and its work not in {@link #finished} yet. */
    static final class Group {
        final String name;
        final LongAdder threads = new LongAdder();
        /**
         * Handed-over trees merged by method identity, the cheap way, before they go to
         * {@link #finished} by frame name: at every write, and every {@link #BATCH} trees of all
         * groups, so that the agent keeps few identifiers of unloaded classes. Null while empty.
         * Guarded by the agent's lock.
         */
        IC batch;

        Group(String name) {
            this.name = name;
        }
    }

    /** A tree detached from its root, with the group of its thread. */
    private static final class HandedOver {
        final Group group;
        final IC tree;
        /** The agent's {@link #resets} when the tree was taken: older trees are dropped. */
        final int resets;

        HandedOver(Group group, IC tree, int resets) {
            this.group = group;
            this.tree = tree;
            this.resets = resets;
        }
    }

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
        Group group = group(root.threadGroup);
        group.threads.increment();
        root.group = group;
        root.resets = resets;
        root.foldEveryReturn = exiting;
        if (!root.inSlot) {
            unslotted.put(root, new Registration(thread, root, collected));
        }
        return granularity;
    }

    /** The group {@code name}, or {@link #otherThreads} once {@link #MAX_GROUPS} groups exist. */
    private Group group(String name) {
        Group group = groups.get(name);
        if (group != null) return group;
        if (groups.size() >= MAX_GROUPS) return otherThreads;
        synchronized (groups) { // rare: at most MAX_GROUPS times, and when the map is full
            group = groups.get(name);
            if (group == null) {
                if (groups.size() >= MAX_GROUPS) return otherThreads;
                group = new Group(name);
                groups.put(name, group);
            }
            return group;
        }
    }

    /**
     * The group of a registered root. Its thread set it when registering, and another thread (one
     * that takes its slot, the writer) may not see that yet: then the group is looked up again.
     */
    final Group groupOf(RC root) {
        Group group = root.group;
        return group != null ? group : group(root.threadGroup);
    }

    @Override
    public long report(RC root, IC current) {
        forgetIfStale(root);
        return granularity;
    }

    /**
     * {@link JP#reset()}: drops the finished work now and asks every running thread to drop its
     * counts at its next method entry or loop header; until it does, its tree is left out of what
     * is written and handed over.
     */
    final void reset() {
        lock.lock();
        try {
            mergeHandedOver();
            for (Group group : allGroups()) group.batch = null;
            batched = 0;
            finished = new ProfileTree();
            resets++;
            for (RC root : roots()) root.requestReport();
        } finally {
            lock.unlock();
        }
    }

    /**
     * On {@code root}'s thread, or once it has ended: drops its counts if they all predate the
     * last reset. Whether it did.
     */
    private boolean forgetIfStale(RC root) {
        int now = resets;
        if (root.resets == now) return false;
        root.resets = now;
        root.takeCounts();
        return true;
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
            handOver(root, false);
            if (!root.inSlot) {
                unslotted.remove(root); // until it counts again: see resumed
            }
        }
    }

    /**
     * {@code root} gets its first child, on its own thread, for the first time or after its tree
     * was handed over. In no slot, it is tracked again. A thread that handed a tree over and
     * counts again will most likely build the same tree again (a driver that calls into the
     * instrumented code round after round, a test runner, a pool thread): it takes its group's
     * batch back as its tree, so that the agent's copy and the thread's are one. Whether it did.
     */
    final boolean resumed(RC root) {
        if (!root.inSlot && !unslotted.containsKey(root)) {
            unslotted.put(root, new Registration(Thread.currentThread(), root, collected));
        }
        return root.returns > 0 && takesTreesBack() && !exiting && takeBack(root);
    }

    /**
     * Whether a thread that counts again after handing its tree over takes its group's batch back
     * ({@link #resumed}).
     */
    boolean takesTreesBack() {
        return true;
    }

    /** Makes the batch of {@code root}'s group its tree, when the lock is free and there is one. */
    private boolean takeBack(RC root) {
        if (!lock.tryLock()) return false;
        try {
            mergeHandedOver();
            Group group = groupOf(root);
            // A root behind the last reset drops its counts at its next report: not the batch's.
            if (group.batch == null || root.resets != resets) return false;
            root.adoptChildren(group.batch);
            group.batch = null;
            return true;
        } catch (OutOfMemoryError e) {
            lost("taking a tree back", e);
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** {@code root}, of an ended thread, left its slot: nothing changes its tree any more. */
    void evicted(RC root) {
        if (root.hasChildren()) {
            handOver(root, false);
        }
    }

    /**
     * Hands over the counts of {@code root}'s tree, which keeps its nodes, from its own thread
     * (its report): its methods may be running and hold their nodes.
     */
    final void handOverCounts(RC root) {
        if (root.hasChildren()) {
            handOver(root, true);
        }
    }

    /**
     * Merges {@code root}'s tree, and empties it, if the lock is free; queues it for whoever gets
     * the lock next otherwise. With {@code countsOnly}, the tree keeps its nodes and hands over
     * their counts instead ({@link IC#takeCounts}). During exit it waits for the lock instead, and
     * writes the profile again once it was written: a write that missed this tree (queued after
     * it looked) is then followed by one that has it.
     */
    private void handOver(RC root, boolean countsOnly) {
        if (forgetIfStale(root)) {
            if (!countsOnly) root.dropChildren();
            return;
        }
        try {
            int taken = resets;
            if (!exiting && lock.tryLock()) {
                try {
                    mergeHandedOver();
                    merge(groupOf(root), take(root, countsOnly));
                } finally {
                    lock.unlock();
                }
                return;
            }
            handedOver.add(new HandedOver(groupOf(root), take(root, countsOnly), taken));
            if (exiting) {
                lock.lock();
                try {
                    mergeHandedOver();
                    Path target = writtenAtExit;
                    if (target != null) {
                        writeTo(target);
                        wroteAtExit();
                    }
                } finally {
                    lock.unlock();
                }
            }
        } catch (OutOfMemoryError e) {
            // On the program's thread: the agent's failure must not become the program's.
            if (!countsOnly) root.dropChildren();
            lost("merging a thread's contexts", e);
        }
    }

    private static IC take(RC root, boolean countsOnly) {
        return countsOnly ? root.takeCounts() : root.detachChildren();
    }

    /**
     * Counts were lost for want of memory: the memory kept in reserve is freed so that the program
     * and the write at exit can go on, stderr says so once, and the profile's metadata says that
     * it is incomplete.
     */
    private void lost(String doing, OutOfMemoryError e) {
        reserve = null;
        if (incomplete == null) {
            incomplete = "out of memory while " + doing + ": some counts are missing";
            Agents.warn(incomplete + " from the profile (" + e + ")");
        }
    }

    /**
     * Merges the queued trees, and those of collected threads that had no slot: a thread object
     * is collected only once the thread has ended, so nothing changes those trees any more.
     * Under lock.
     */
    final void mergeHandedOver() {
        for (HandedOver tree; (tree = handedOver.poll()) != null;) {
            if (tree.resets == resets) merge(tree.group, tree.tree);
        }
        for (Object ref; (ref = collected.poll()) != null;) {
            Registration registration = (Registration) ref;
            if (unslotted.remove(registration.root, registration) && !forgetIfStale(registration.root)) {
                merge(groupOf(registration.root), registration.root.detachChildren());
            }
        }
    }

    /**
     * Under lock. {@code tree} is the agent's (detached from its root): the first tree of a batch
     * becomes the batch itself, so that a program whose work is one thread's (its main thread,
     * most often) never has its tree copied.
     */
    private void merge(Group group, IC tree) {
        if (group.batch == null) group.batch = tree;
        else group.batch.addTree(tree, mergeWork);
        if (++batched == BATCH) flushBatches();
    }

    /** Under lock. */
    final void flushBatches() {
        for (Group group : allGroups()) {
            if (group.batch != null) {
                finished.add(group.name, group.batch);
                flushed(group.name, group.batch);
                group.batch = null;
            }
        }
        batched = 0;
    }

    /** Under lock: {@code batch}, of {@code group}, went to the finished work. */
    void flushed(String group, IC batch) {}

    /** Every group, {@link #otherThreads} included. */
    final List<Group> allGroups() {
        List<Group> all = new ArrayList<Group>(groups.values());
        all.add(otherThreads);
        return all;
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
    final List<RC> roots() {
        List<RC> roots = new ArrayList<RC>(unslotted.keySet());
        for (int i = 0; i < RC.SLOT_COUNT; i++) {
            RC root = RC.slotRoot(i);
            if (root != null && root.profiler() == this) roots.add(root);
        }
        return roots;
    }

    /**
     * Writes the profile at JVM exit; work handed over later writes the same file again. The
     * memory kept in reserve is the write's: a program that used all the rest still gets its
     * profile, or a line saying why not.
     */
    void writeAtExit() {
        reserve = null;
        exiting = true;
        lock.lock();
        try {
            writtenAtExit = write();
            if (writtenAtExit != null) wroteAtExit();
        } finally {
            lock.unlock();
        }
    }

    /** Under lock: the profile was written at exit, or again for work handed over later. */
    void wroteAtExit() {}

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
        } catch (RuntimeException | Error e) {
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
     * left its root or slot, so no tree is counted twice. The profile is written from the finished
     * work and the running threads' trees as they are, without a merged copy; a failure, running
     * out of memory included, is said on stderr with the path, never silently.
     */
    private Path writeTo(Path target) {
        try {
            mergeHandedOver();
            // Not yet merged by name: the groups' batches and the running threads' trees are
            // written as they are, beside the finished work.
            Map<String, List<IC>> unmerged = new TreeMap<String, List<IC>>();
            for (Group group : allGroups()) {
                if (group.batch != null) ProfileWriter.listOf(unmerged, group.name).add(group.batch);
            }
            addRunningTrees(unmerged);
            long threads = 0;
            for (Group group : allGroups()) {
                long count = group.threads.sum();
                if (count > 0) finished.group(group.name).threads = count;
                threads += count;
            }
            ProfileWriter.write(finished, unmerged, meta(threads), target);
            return target;
        } catch (OutOfMemoryError e) {
            reserve = null;
            Agents.warn("cannot write the profile to " + target + ": " + e);
            return null;
        } catch (Exception | Error e) {
            Agents.warn("cannot write the profile to " + target + ": " + e);
            return null;
        }
    }

    /** The agent's name in the metadata. */
    String name() {
        return "default";
    }

    /** Adds the trees of the threads still running, as they are now, to their groups' lists. */
    final void addRunningTrees(Map<String, List<IC>> byGroup) {
        for (RC root : roots()) {
            // A root that has not taken the last reset in holds only counts from before it.
            if (root.hasChildren() && root.resets == resets) {
                ProfileWriter.listOf(byGroup, groupOf(root).name).add(root);
            }
        }
    }

    /** Under lock. */
    final Map<String, String> meta(long threads) {
        Map<String, String> meta = new LinkedHashMap<String, String>();
        meta.put("agent", name());
        meta.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        meta.put("bba", MID.analyses());
        meta.put("threads", Long.toString(threads));
        meta.put("start", start);
        meta.put("end", Instant.now().toString());
        meta.put("pid", pid());
        String command = System.getProperty("sun.java.command");
        if (command != null && !command.isEmpty()) meta.put("command", command);
        if (incomplete != null) meta.put("incomplete", incomplete);
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
