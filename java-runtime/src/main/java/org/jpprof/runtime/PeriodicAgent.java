package org.jpprof.runtime;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code jp.agent=periodic}: the default agent, whose profile it writes at exit unchanged, and
 * along the run a series of snapshots ({@link SnapshotSeries}) of the work merged over every
 * thread.
 *
 * <p>Running threads hand their counts over in their own reports ({@link IC#takeCounts}): no
 * thread reads another's live tree. A snapshot holds what was handed over by then: the work of
 * threads that ended or returned to their roots, and each running thread's counts up to its last
 * report. Two triggers, either or both:
 *
 * <ul>
 *   <li>bytecodes: every thread reports every so many bytecodes it runs, and then writes a
 *       snapshot (unless another thread is writing one: its counts are in the next);
 *   <li>a timer: every so many milliseconds, a daemon thread writes a snapshot and then asks every
 *       thread to report at its next activation check ({@link RC#requestReport}), so that the
 *       next snapshot has what they ran until then.
 * </ul>
 *
 * <p>At exit the last snapshot holds the rest, the running threads' trees read as the default
 * agent reads them, so that the series adds up to the profile at exit.
 */
final class PeriodicAgent extends DefaultAgent {
    /** Bytecodes between a thread's reports, each followed by a snapshot; 0 for none. */
    private final long bytecodes;
    /** Milliseconds between the timer's snapshots; 0 for no timer. */
    private final long millis;
    private final long started = System.nanoTime();
    /** Guarded by the lock. */
    private final SnapshotSeries series;
    /** Roots the timer asked to report since its last tick: their reports write no snapshot. */
    private final Set<RC> asked = Collections.newSetFromMap(new ConcurrentHashMap<RC, Boolean>());

    PeriodicAgent(long granularity, String output, long bytecodes, long millis) {
        super(granularity, output);
        this.bytecodes = bytecodes;
        this.millis = millis;
        this.series = new SnapshotSeries(output);
    }

    @Override
    String name() {
        return "periodic";
    }

    @Override
    public long register(Thread thread, RC root) {
        long first = super.register(thread, root);
        return bytecodes > 0 ? bytecodes : first;
    }

    @Override
    public long report(RC root, IC current) {
        handOverCounts(root);
        boolean byTimer = asked.remove(root);
        if (bytecodes == 0) return super.report(root, current);
        if (!byTimer && lock.tryLock()) {
            try {
                snapshot("bytecodes");
            } finally {
                lock.unlock();
            }
        }
        return bytecodes;
    }

    /** Starts the timer's daemon thread, when there is a timer. */
    void startTimer() {
        if (millis == 0) return;
        Thread timer = new Thread(new Runnable() {
            @Override
            public void run() {
                tick();
            }
        }, "jp-snapshot-timer");
        timer.setDaemon(true);
        timer.start();
    }

    private void tick() {
        while (!exiting) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                return;
            }
            lock.lock();
            try {
                snapshot("timer");
            } finally {
                lock.unlock();
            }
            askEveryThread();
        }
    }

    /** Under lock: the next snapshot, of what was handed over; none once the JVM exits. */
    private void snapshot(String trigger) {
        if (exiting) return;
        mergeHandedOver();
        flushBatches();
        series.write(this, Collections.<String, List<IC>>emptyMap(), trigger, elapsedMillis(), false);
    }

    /** Asks every running thread to report; the roots of ended threads are asked for nothing. */
    private void askEveryThread() {
        asked.clear();
        for (RC root : roots()) {
            asked.add(root);
            root.requestReport();
        }
    }

    /** No: a snapshot holds each batch once, and a batch taken back would be handed over again. */
    @Override
    boolean takesTreesBack() {
        return false;
    }

    @Override
    void flushed(String group, IC batch) {
        series.flushed(group, batch);
    }

    /** The last snapshot: what was handed over since the one before, and the running threads' trees. */
    @Override
    void wroteAtExit() {
        flushBatches();
        Map<String, List<IC>> running = new TreeMap<String, List<IC>>();
        addRunningTrees(running);
        series.write(this, running, "exit", elapsedMillis(), true);
    }

    private long elapsedMillis() {
        return (System.nanoTime() - started) / 1_000_000;
    }
}
