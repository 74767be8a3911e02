package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How threads find their roots, and when the default agent takes their trees over. */
class ThreadsTest {
    @TempDir
    Path dir;

    /** Overrides getId the way an instrumented override does: it runs RC.current() first. */
    static final class InstrumentedGetId extends Thread {
        InstrumentedGetId(Runnable task) {
            super(task);
        }

        @Override
        @SuppressWarnings("deprecation")
        public long getId() {
            RC.current();
            return super.getId();
        }
    }

    /** Gives every thread of its class the same id. */
    static final class SharedId extends Thread {
        SharedId(Runnable task) {
            super(task);
        }

        @Override
        @SuppressWarnings("deprecation")
        public long getId() {
            return 42;
        }
    }

    @Test
    void a_thread_whose_get_id_runs_instrumented_code_finds_its_root() throws InterruptedException {
        AtomicReference<Object> found = new AtomicReference<>();
        Thread thread = new InstrumentedGetId(() -> {
            try {
                found.set(RC.current());
            } catch (StackOverflowError e) {
                found.set(e);
            }
        });
        thread.start();
        thread.join();
        assertEquals(RC.class, found.get().getClass());
    }

    @Test
    void threads_that_claim_the_same_id_get_roots_of_their_own() throws InterruptedException {
        MID[] mids = MID.table("precise.t/Shared.work.()V.1");
        int perThread = 200_000;
        AtomicReference<RC> first = new AtomicReference<>();
        AtomicReference<RC> second = new AtomicReference<>();
        Thread a = new SharedId(() -> first.set(callMany(mids[0], perThread)));
        Thread b = new SharedId(() -> second.set(callMany(mids[0], perThread)));
        a.start();
        b.start();
        a.join();
        b.join();
        assertNotSame(first.get(), second.get());
    }

    /** Calls {@code mid} {@code count} times under one outer frame, checking its root each time. */
    private static RC callMany(MID mid, int count) {
        RC rc = RC.current();
        for (int i = 0; i < count; i++) {
            RC again = RC.current();
            if (again != rc) throw new AssertionError("another thread's root");
            RC.leaf(mid, 1);
        }
        return rc;
    }

    @Test
    void a_threads_tree_is_handed_over_when_its_outermost_method_returns() throws Exception {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("p.jpprof").toString());
        MID[] mids = MID.table("precise.t/Task.run.()V.3.step.()V.1");
        RC rc = new RC(Thread.currentThread());
        rc.attach(agent, Thread.currentThread());
        IC run = rc.enter(mids[0]);
        rc.exit(rc.enter(mids[1]), 1);
        assertEquals(1, agent.running());
        rc.exit(run, 2);
        assertEquals(0, agent.running(), "merged without waiting for the thread to be collected");
        assertEquals(0, rc.children().length);
        // New work registers the root again, and its next return to the root (the second) merges it.
        IC again = rc.enter(mids[0]);
        assertEquals(1, agent.running());
        rc.exit(again, 2);
        assertEquals(0, agent.running());
        ProfileFile profile = ProfileFile.read(agent.write());
        assertEquals(2, profile.get("t.Task.run()V").calls);
        assertEquals(4, profile.get("t.Task.run()V").bytecodes);
        assertEquals(1, profile.get("t.Task.run()V", "t.Task.step()V").calls);
    }

    @Test
    void the_agent_keeps_no_root_whose_tree_it_took_over() throws Exception {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("p.jpprof").toString());
        MID[] mids = MID.table("precise.t/Once.run.()V.1");
        List<WeakReference<RC>> roots = new ArrayList<>();
        List<Thread> threads = new ArrayList<>(); // kept: the roots must go without their threads going
        for (int t = 0; t < 100; t++) {
            Thread thread = new Thread(() -> {
                RC rc = new RC(Thread.currentThread()); // in no slot: the agent tracks it itself
                rc.attach(agent, Thread.currentThread());
                rc.exit(rc.enter(mids[0]), 1);
                synchronized (roots) {
                    roots.add(new WeakReference<>(rc));
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) thread.join();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (roots.stream().anyMatch(root -> root.get() != null) && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(5);
        }
        assertEquals(0, roots.stream().filter(root -> root.get() != null).count());
        assertEquals(100, threads.size());
        assertEquals(100, ProfileFile.read(agent.write()).get("t.Once.run()V").calls);
    }

    @Test
    void a_thread_that_returns_to_its_root_often_hands_its_tree_over_at_powers_of_two() {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("p.jpprof").toString());
        MID[] mids = MID.table("precise.t/Pool.task.()V.1");
        RC rc = new RC(Thread.currentThread());
        rc.attach(agent, Thread.currentThread());
        StringBuilder merged = new StringBuilder();
        for (int task = 1; task <= 9; task++) {
            rc.exit(rc.enter(mids[0]), 1);
            if (agent.running() == 0) merged.append(task).append(' ');
        }
        assertEquals("1 2 4 8 ", merged.toString());
    }

    @Test
    void a_thread_that_counts_again_after_handing_its_tree_over_takes_the_tree_back() throws Exception {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("p.jpprof").toString());
        MID[] mids = MID.table("precise.t/Round.run.()V.3.step.()V.1");
        RC rc = new RC(Thread.currentThread());
        rc.attach(agent, Thread.currentThread());
        List<IC> steps = new ArrayList<>();
        for (int round = 1; round <= 6; round++) {
            IC run = rc.enter(mids[0]);
            IC step = rc.enter(mids[1]);
            steps.add(step);
            rc.exit(step, 1);
            rc.exit(run, 2);
        }
        // One copy of the tree: every round counted into the contexts of the first.
        for (IC step : steps) assertSame(steps.get(0), step);
        assertSame(rc, steps.get(0).parent.parent);
        ProfileFile profile = ProfileFile.read(agent.write());
        assertEquals(6, profile.get("t.Round.run()V").calls);
        assertEquals(12, profile.get("t.Round.run()V").bytecodes);
        assertEquals(6, profile.get("t.Round.run()V", "t.Round.step()V").calls);
    }

    @Test
    void a_tree_taken_back_holds_the_work_other_threads_of_its_group_handed_over() throws Exception {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("p.jpprof").toString());
        MID[] mids = MID.table("precise.t/Shared.run.()V.1");
        RC rc = new RC(Thread.currentThread());
        rc.attach(agent, Thread.currentThread());
        rc.exit(rc.enter(mids[0]), 1);
        Thread other = new Thread(() -> {
            RC own = new RC(Thread.currentThread());
            own.attach(agent, Thread.currentThread());
            own.exit(own.enter(mids[0]), 1);
        }, Thread.currentThread().getName()); // the same group
        other.start();
        other.join();
        IC run = rc.enter(mids[0]);
        assertEquals(3, run.calls, "this thread's call, the other thread's, and this one");
        rc.exit(run, 1);
        assertEquals(3, ProfileFile.read(agent.write()).get("t.Shared.run()V").calls);
    }

    @Test
    void work_handed_over_after_the_exit_write_writes_the_same_file_again() throws Exception {
        Path target = dir.resolve("exit.jpprof");
        DefaultAgent agent = new DefaultAgent(1_000_000, target.toString());
        agent.writeAtExit();
        assertNull(ProfileFile.read(target).find("t.Hook.run()V"));
        MID[] mids = MID.table("precise.t/Hook.run.()V.1");
        Thread hook = new Thread(() -> {
            RC rc = new RC(Thread.currentThread());
            rc.attach(agent, Thread.currentThread());
            for (int i = 0; i < 3; i++) {
                rc.exit(rc.enter(mids[0]), 1); // every return counts, not only the 1st, 2nd and 4th
            }
        });
        hook.start();
        hook.join();
        ProfileFile profile = ProfileFile.read(target);
        assertNotNull(profile.find("t.Hook.run()V"));
        assertEquals(3, profile.get("t.Hook.run()V").calls);
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            assertEquals(1, files.count());
        }
    }

    @Test
    void the_tree_of_an_ended_thread_is_handed_over_when_another_thread_takes_its_slot() throws Exception {
        MID[] mids = MID.table("precise.t/Evicted.run.()V.1");
        Thread ended = new Thread(() -> RC.current().enter(mids[0])); // ends inside run
        ended.start();
        ended.join();
        Thread taker = null;
        for (int i = 0; i < 4 * RC.SLOT_COUNT && taker == null; i++) {
            Thread candidate = new Thread(RC::current);
            if (((ThreadIds.of(candidate) ^ ThreadIds.of(ended)) & (RC.SLOT_COUNT - 1)) == 0) taker = candidate;
        }
        assertNotNull(taker, "no thread id shares the slot");
        DefaultAgent agent = (DefaultAgent) Agents.profiler();
        RC endedRoot = RC.slotRoot((int) ThreadIds.of(ended) & (RC.SLOT_COUNT - 1));
        assertEquals(1, endedRoot.children().length);
        taker.start();
        taker.join();
        assertEquals(0, endedRoot.children().length, "the tree went to the agent with the slot");
        assertEquals(1, ProfileFile.read(JP.writeProfile()).get("t.Evicted.run()V").calls);
        assertNotNull(agent);
    }

    @Test
    void a_root_holds_no_reference_to_its_thread() throws Exception {
        RC[] root = new RC[1];
        java.lang.ref.WeakReference<Thread> thread = startAndForget(root);
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (thread.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(5);
        }
        assertNull(thread.get());
        assertSame(RC.class, root[0].getClass());
    }

    private static java.lang.ref.WeakReference<Thread> startAndForget(RC[] root) throws InterruptedException {
        Thread thread = new Thread(() -> root[0] = RC.current());
        thread.start();
        thread.join();
        return new java.lang.ref.WeakReference<>(thread);
    }
}
