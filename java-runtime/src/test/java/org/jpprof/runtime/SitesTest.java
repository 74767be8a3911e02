package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.io.StringWriter;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** Contexts keyed by call site, driven the way code instrumented with call sites drives them. */
class SitesTest {
    private static int site(int line, int bci) {
        return line << 16 | bci;
    }

    private static int target(MID mid) {
        return (mid.name + mid.descriptor).hashCode();
    }

    @Test
    void a_method_called_from_two_sites_gets_a_context_for_each() {
        MID[] mids = MID.table("precise+sites.s/Two.main.()V.9.callee.()V.2");
        RC rc = RC.current();
        IC main = rc.enterAt(mids[0]);
        IC[] seen = new IC[2];
        for (int i = 0; i < 5; i++) {
            int at = i < 3 ? 0 : 1;
            main.site(site(10 + at, 4 + 3 * at), target(mids[1]));
            IC callee = rc.enterAt(mids[1]);
            rc.exit(callee, 2);
            if (seen[at] == null) seen[at] = callee;
            assertSame(seen[at], callee);
        }
        rc.exit(main, 1);
        assertNotSame(seen[0], seen[1]);
        assertEquals(3, seen[0].calls);
        assertEquals(2, seen[1].calls);
        assertEquals(site(10, 4), seen[0].mid.site);
        assertEquals(site(11, 7), seen[1].mid.site);
        assertSame(mids[1].frame(), seen[1].mid.frame());
        assertSame(mids[1].at(site(11, 7)), seen[1].mid);
    }

    /**
     * A site stored before an invoke of uninstrumented code is not taken by instrumented code it
     * calls back (another method), nor by a later entry once the caller returned.
     */
    @Test
    void a_site_keys_only_the_callee_it_was_stored_for_while_its_caller_is_current() {
        MID[] mids = MID.table("precise+sites.s/Back.main.()V.9.run.()V.2.callback.()V.2");
        RC rc = RC.current();
        IC main = rc.enterAt(mids[0]);
        main.site(site(20, 3), target(mids[1])); // main calls a JDK method, which calls back
        IC callback = rc.enterAt(mids[2]);
        assertEquals(MID.NO_SITE, callback.mid.site);
        rc.exit(callback, 0);
        main.site(site(21, 9), target(mids[1])); // the invoke returns without a callback
        rc.exit(main, 0);
        IC run = rc.enterAt(mids[1]); // now called from uninstrumented code
        assertEquals(MID.NO_SITE, run.mid.site);
        rc.exit(run, 0);
    }

    /** An invoke that initializes the callee's class first: the initializer's own invokes keep their sites apart. */
    @Test
    void a_static_initializer_run_by_the_invoke_leaves_the_site_to_the_callee() {
        MID[] mids = MID.table("precise+sites.s/Init.main.()V.9.<clinit>.()V.3.f.()V.2");
        RC rc = RC.current();
        IC main = rc.enterAt(mids[0]);
        main.site(site(30, 1), target(mids[2]));
        IC saved = rc.top;
        IC init = rc.enterRoot(mids[1]);
        init.site(site(2, 0), target(mids[2]));
        IC fromInit = rc.enterAt(mids[2]);
        rc.exit(fromInit, 0);
        rc.restore(saved);
        IC f = rc.enterAt(mids[2]);
        rc.exit(f, 0);
        rc.exit(main, 0);
        assertEquals(site(2, 0), fromInit.mid.site);
        assertEquals(site(30, 1), f.mid.site);
        assertEquals(MID.NO_SITE, init.mid.site);
    }

    /** A class instrumented with and without call sites (two class loaders) gets apart identifiers. */
    @Test
    void the_same_method_with_and_without_call_sites_has_two_identifiers() {
        MID plain = MID.method("precise.s/Both.m.()V.1");
        MID sited = MID.method("precise+sites.s/Both.m.()V.1");
        assertNotSame(plain, sited);
        assertEquals(plain.frame(), sited.frame());
        assertEquals(plain.id + 1, sited.id);
    }

    @Test
    void a_site_keys_one_call_and_leaves_key_by_it_too() {
        MID[] mids = MID.table("precise+sites.s/Once.main.()V.9.get.()I.1");
        RC rc = RC.current();
        IC main = rc.enterAt(mids[0]);
        main.site(site(0, 5), target(mids[1]));
        IC keyed = RC.leafAt(mids[1], 1);
        IC unkeyed = RC.leafAt(mids[1], 1);
        rc.exit(main, 0);
        assertEquals(site(0, 5), keyed.mid.site);
        assertEquals(MID.NO_SITE, unkeyed.mid.site);
        assertEquals(1, keyed.calls);
        assertEquals(1, unkeyed.calls);
    }

    @Test
    void sites_made_by_several_threads_at_once_are_one_per_method_and_site() throws InterruptedException {
        MID mid = MID.method("precise+sites.s/Raced.m.()V.1");
        MID[][] made = new MID[4][100];
        Thread[] threads = new Thread[made.length];
        for (int t = 0; t < threads.length; t++) {
            MID[] mine = made[t];
            threads[t] = new Thread(() -> {
                for (int i = 0; i < mine.length; i++) mine[i] = mid.at(site(i, i * 3));
            });
            threads[t].start();
        }
        for (Thread thread : threads) thread.join();
        for (MID[] mids : made) {
            for (int i = 0; i < mids.length; i++) assertSame(made[0][i], mids[i]);
        }
    }

    /** Sited contexts merge by frame and site, and their nodes name the site: version 5. */
    @Test
    void a_profile_with_sites_writes_them_after_the_counts() throws IOException {
        ProfileTree tree = new ProfileTree();
        ProfileTree.Node main = tree.root.child("a.B.main()V", MID.NO_SITE);
        main.calls = 1;
        main.child("a.B.f()V", site(12, 7)).calls = 2;
        main.child("a.B.f()V", site(0, 3)).calls = 3;
        main.child("a.B.f()V", MID.NO_SITE).calls = 4;
        assertSame(main.child("a.B.f()V", site(12, 7)), main.child("a.B.f()V", site(12, 7)));
        StringWriter out = new StringWriter();
        ProfileWriter.write(tree, Collections.<String, String>emptyMap(), out);
        assertEquals("jp-profile 5\nframe 1 a.B.main()V\nframe 2 a.B.f()V\n"
                + "node 1 0 1 1 0\nnode 2 1 2 4 0\nnode 3 1 2 3 0 3\nnode 4 1 2 2 0 7:12\nend 4\n", out.toString());
    }
}
