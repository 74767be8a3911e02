package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Test contexts: what a test listener's begin and end calls do to a thread's tree. */
class TestsTest {
    private static final String CLASS = "com.acme.FooTest";
    private static final String WORKS = "com.acme.FooTest#works()";

    @TempDir
    Path dir;

    private final MID[] mids = MID.table("precise.com/acme/FooTest.beforeAll.()V.1.setUp.()V.1.works.()V.2.afterAll.()V.1");

    private void call(RC rc, MID mid, int bytecodes) {
        rc.exit(rc.enter(mid), bytecodes);
    }

    @Test
    void a_test_identifier_is_one_per_test_and_names_no_method() {
        MID test = MID.test(WORKS);
        assertSame(test, MID.test(WORKS));
        assertTrue(test.isTest());
        assertFalse(mids[0].isTest());
        assertEquals("[test] " + WORKS, test.frame());
        assertEquals(WORKS, test.name);
        assertEquals(0, test.bound);
    }

    @Test
    void set_up_and_the_test_count_under_the_test_and_class_set_up_under_the_class() throws Exception {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("p.jpprof").toString());
        RC rc = new RC(Thread.currentThread());
        rc.attach(agent, Thread.currentThread());
        rc.beginTest(MID.test(CLASS));
        call(rc, mids[0], 3);
        rc.beginTest(MID.test(WORKS));
        call(rc, mids[1], 5);
        IC works = rc.enter(mids[2]);
        assertSame(MID.test(WORKS), works.parent.mid);
        rc.exit(works, 7);
        rc.endTest(MID.test(WORKS));
        assertSame(MID.test(CLASS), rc.top.mid, "back in the class's context");
        call(rc, mids[3], 11);
        assertEquals(1, agent.running(), "not merged while a test is open");
        rc.endTest(MID.test(CLASS));
        assertSame(rc, rc.top);
        assertEquals(0, agent.running(), "merged once the thread is back at its root");

        ProfileFile profile = ProfileFile.read(agent.write());
        assertEquals(1, profile.get("[test] " + CLASS).calls);
        assertEquals(0, profile.get("[test] " + CLASS).bytecodes);
        assertEquals(3, profile.get("[test] " + CLASS, "com.acme.FooTest.beforeAll()V").bytecodes);
        assertEquals(11, profile.get("[test] " + CLASS, "com.acme.FooTest.afterAll()V").bytecodes);
        assertEquals(1, profile.get("[test] " + WORKS).calls);
        assertEquals(5, profile.get("[test] " + WORKS, "com.acme.FooTest.setUp()V").bytecodes);
        assertEquals(7, profile.get("[test] " + WORKS, "com.acme.FooTest.works()V").bytecodes);
        assertNull(profile.find("[test] " + CLASS, "[test] " + WORKS), "test contexts are all top-level");
        assertNull(profile.find("com.acme.FooTest.works()V"));
    }

    /** A static initializer is top-level and restores what was current: it hands nothing over mid-test. */
    @Test
    void a_static_initializer_run_by_a_test_stays_top_level_and_the_test_goes_on() throws Exception {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("p.jpprof").toString());
        MID clinit = MID.table("precise.com/acme/Lazy.<clinit>.()V.1")[0];
        RC rc = new RC(Thread.currentThread());
        rc.attach(agent, Thread.currentThread());
        rc.beginTest(MID.test(WORKS));
        IC saved = rc.top;
        rc.enterRoot(clinit).count(2);
        rc.restore(saved);
        call(rc, mids[2], 7);
        assertEquals(1, agent.running());
        rc.endTest(MID.test(WORKS));
        ProfileFile profile = ProfileFile.read(agent.write());
        assertEquals(2, profile.get("com.acme.Lazy.<clinit>()V").bytecodes);
        assertEquals(7, profile.get("[test] " + WORKS, "com.acme.FooTest.works()V").bytecodes);
    }

    @Test
    void a_test_run_twice_adds_up_in_its_context() throws Exception {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("p.jpprof").toString());
        RC rc = new RC(Thread.currentThread());
        rc.attach(agent, Thread.currentThread());
        for (int run = 0; run < 2; run++) {
            rc.beginTest(MID.test(WORKS));
            call(rc, mids[2], 7);
            rc.endTest(MID.test(WORKS));
        }
        ProfileFile profile = ProfileFile.read(agent.write());
        assertEquals(2, profile.get("[test] " + WORKS).calls);
        assertEquals(2, profile.get("[test] " + WORKS, "com.acme.FooTest.works()V").calls);
        assertEquals(14, profile.get("[test] " + WORKS, "com.acme.FooTest.works()V").bytecodes);
    }

    @Test
    void ending_a_test_ends_those_left_open_in_it_and_an_unknown_end_changes_nothing() {
        RC rc = new RC(Thread.currentThread());
        IC outer = rc.enter(mids[0]);
        rc.beginTest(MID.test(CLASS));
        rc.beginTest(MID.test(WORKS));
        rc.endTest(MID.test("com.acme.Other#never()"));
        assertSame(MID.test(WORKS), rc.top.mid);
        rc.endTest(MID.test(CLASS));
        assertSame(outer, rc.top, "the context current at the class's begin");
        rc.endTest(MID.test(WORKS));
        assertSame(outer, rc.top);
    }

    @Test
    void work_a_test_hands_to_another_thread_stays_under_that_threads_root() throws Exception {
        MID[] work = MID.table("precise.t/Handed.work.()V.1");
        String test = "t.Handed#handsOver()";
        Tests.begin(test);
        Thread other = new Thread(new Runnable() {
            @Override
            public void run() {
                RC rc = RC.current();
                rc.exit(rc.enter(work[0]), 1);
            }
        });
        other.start();
        other.join();
        RC.current().exit(RC.current().enter(work[0]), 1);
        Tests.end(test);
        Path written = JP.writeProfile();
        assertNotNull(written, "the test JVM runs the default agent");
        ProfileFile profile = ProfileFile.read(written);
        assertEquals(1, profile.get("[test] " + test, "t.Handed.work()V").calls);
        assertEquals(1, profile.get("t.Handed.work()V").calls, "the other thread's, at its top level");
    }
}
