package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JP.reset with the default agent: what ended before it is dropped, running threads drop theirs. */
class ResetTest {
    @TempDir
    Path dir;

    @Test
    void a_reset_drops_what_was_counted_before_it_in_ended_and_running_threads() throws Exception {
        Path target = dir.resolve("reset.jpprof");
        DefaultAgent agent = new DefaultAgent(1_000_000, target.toString());
        MID[] mids = MID.table("precise.t/Reset.run.()V.2.before.()V.3.after.()V.3.ended.()V.1");
        // A thread that ends before the reset: its work is finished work, dropped.
        Thread ended = new Thread(() -> {
            RC rc = new RC(Thread.currentThread());
            rc.attach(agent, Thread.currentThread());
            rc.exit(rc.enter(mids[3]), 1);
        });
        ended.start();
        ended.join();
        // A thread that runs across the reset: run() began before it and is still running.
        CountDownLatch counted = new CountDownLatch(1);
        CountDownLatch reset = new CountDownLatch(1);
        Thread running = new Thread(() -> {
            RC rc = new RC(Thread.currentThread());
            rc.attach(agent, Thread.currentThread());
            IC run = rc.enter(mids[0]);
            for (int i = 0; i < 5; i++) rc.exit(rc.enter(mids[1]), 3);
            counted.countDown();
            await(reset);
            for (int i = 0; i < 7; i++) rc.exit(rc.enter(mids[2]), 3);
            rc.exit(run, 2);
        });
        running.start();
        counted.await();
        agent.reset();
        // Written while the thread waits: it has not taken the reset in, so nothing of it is there.
        agent.write();
        assertEquals(0, ProfileFile.read(target).nodes.size());
        reset.countDown();
        running.join();

        agent.write();
        ProfileFile profile = ProfileFile.read(target);
        assertNull(profile.find("t.Reset.ended()V"));
        // Contexts that running methods may hold stay, with their counts dropped.
        ProfileFile.Context before = profile.find("t.Reset.run()V", "t.Reset.before()V");
        assertEquals(0, before.calls + before.bytecodes);
        ProfileFile.Context after = profile.find("t.Reset.run()V", "t.Reset.after()V");
        assertEquals(7, after.calls);
        assertEquals(21, after.bytecodes);
        // run() keeps its context; its call was before the reset, its last bytecodes after it.
        ProfileFile.Context run = profile.find("t.Reset.run()V");
        assertEquals(0, run.calls);
        assertEquals(2, run.bytecodes);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
