package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Method identifiers and the calling-context tree, driven the way instrumented code drives them. */
class TreeTest {
    @Test
    void a_table_gives_one_identifier_per_method_with_its_class_in_binary_form() {
        MID[] mids = MID.table("precise.a/b/C$D.<init>.()V.4.run.(Ljava/lang/String;)I.12");
        assertEquals(2, mids.length);
        assertEquals("a.b.C$D", mids[1].className);
        assertEquals("run", mids[1].name);
        assertEquals("(Ljava/lang/String;)I", mids[1].descriptor);
        assertEquals(12, mids[1].bound);
        assertEquals(mids[0].id + 1, mids[1].id);
        assertEquals("a.b.C$D.run(Ljava/lang/String;)I", mids[1].frame());
        assertEquals(0, MID.table("default.a/Empty").length);
        assertThrows(IllegalArgumentException.class, () -> MID.table("precise.a/B.m.()V"));
        assertThrows(IllegalArgumentException.class, () -> MID.table("precise.a/B.m.()V.x"));
    }

    @Test
    void only_classes_that_count_more_than_calls_and_bytecodes_get_contexts_with_room_for_it() {
        IC root = new IC(null, null);
        IC plain = root.profileCall(MID.table("precise.t/Plain.m.()V.1")[0]);
        IC extra = root.profileCall(MID.table("precise+extra.t/Extra.m.()V.1")[0]);
        IC sites = root.profileCall(MID.table("default+sites.t/Sites.m.()V.1")[0]);
        IC both = root.profileCall(MID.method("precise+sites+extra.t/Both.m.()V.1"));
        assertSame(IC.class, plain.getClass());
        assertSame(ExtraIC.class, extra.getClass());
        assertSame(SiteIC.class, sites.getClass());
        assertSame(SiteIC.class, both.getClass());
        plain.metric("locks");
        plain.line(3, 1);
        assertNull(plain.metrics(), "a context without room counts nothing more, and never fails");
        assertNull(plain.lines());
        both.metric("locks");
        both.line(3, 1);
        assertEquals("locks", both.metrics().name(0));
        assertEquals(1, both.lines().counts[0]);
    }

    @Test
    void an_interface_method_key_names_its_class_method_and_bound() {
        MID mid = MID.method("default.t/Iface.f.(J)V.7");
        assertEquals("t.Iface", mid.className);
        assertEquals("f", mid.name);
        assertEquals("(J)V", mid.descriptor);
        assertEquals(7, mid.bound);
        assertSame(mid, MID.method("default.t/Iface.f.(J)V.7"));
        assertThrows(IllegalArgumentException.class, () -> MID.method("default.t/Iface.f.(J)V"));
    }

    /** A class loaded again by another class loader runs the same table: it must get the same identifiers. */
    @Test
    void a_method_has_one_identifier_however_often_its_class_is_loaded() {
        MID[] first = MID.table("precise.t/Reloaded.<init>.()V.3.run.()V.9");
        MID[] again = MID.table("precise.t/Reloaded.<init>.()V.3.run.()V.9");
        assertSame(first[0], again[0]);
        assertSame(first[1], again[1]);
        // Changed (a hot reload): new identifiers, whose contexts the profile merges by name.
        MID[] changed = MID.table("precise.t/Reloaded.<init>.()V.3.run.()V.12");
        assertNotSame(first[0], changed[0]);
        assertEquals(first[0].frame(), changed[0].frame());
    }

    @Test
    void identifiers_made_by_several_threads_at_once_are_one_per_method() throws InterruptedException {
        MID[][] made = new MID[8][];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < made.length; t++) {
            int slot = t;
            threads.add(new Thread(() -> {
                MID[] mids = new MID[1000];
                for (int i = 0; i < mids.length; i++) {
                    mids[i] = MID.method("precise.t/Raced.m" + i + ".()V.1");
                }
                made[slot] = mids;
            }));
        }
        for (Thread thread : threads) thread.start();
        for (Thread thread : threads) thread.join();
        Set<Integer> ids = new HashSet<>();
        for (MID[] mids : made) {
            for (int i = 0; i < mids.length; i++) {
                assertSame(made[0][i], mids[i]);
                ids.add(mids[i].id);
            }
        }
        assertEquals(1000, ids.size());
    }

    @Test
    void both_block_analyses_make_a_mixed_profile() {
        MID.table("default.t/Old.m.()V.1");
        MID.table("precise.t/New.m.()V.1");
        assertEquals("mixed", MID.analyses());
    }

    @Test
    void enter_and_exit_restore_the_top_context() {
        MID[] mids = MID.table("default.t/A.main.()V.3.f.()V.2");
        RC rc = RC.current();
        assertSame(rc, RC.current());
        IC top = rc.top;
        IC main = rc.enter(mids[0]);
        IC f = rc.enter(mids[1]);
        assertSame(main, f.parent);
        assertSame(mids[1], f.mid);
        assertSame(f, rc.top);
        rc.exit(f, 2);
        rc.exit(f, 0); // a return that throws after its exit code exits again, its count flushed already
        assertSame(main, rc.top);
        assertSame(f, rc.enter(mids[1]));
        rc.exit(f, 2);
        rc.exit(main, 3);
        assertSame(top, rc.top);
        assertEquals(1, main.calls);
        assertEquals(3, main.bytecodes);
        assertEquals(2, f.calls);
        assertEquals(4, f.bytecodes);
        assertEquals(Arrays.asList(f), Arrays.asList(main.children()));
    }

    @Test
    void loop_headers_add_the_bytecodes_counted_so_far() {
        MID[] mids = MID.table("precise.t/Loop.spin.()V.6");
        RC rc = RC.current();
        IC spin = rc.enter(mids[0]);
        for (int i = 0; i < 10; i++) {
            rc.poll(spin, 6);
        }
        rc.exit(spin, 1);
        assertEquals(61, spin.bytecodes);
        spin.count(4); // leaf methods and static initializers add block by block
        assertEquals(65, spin.bytecodes);
    }

    @Test
    void an_exception_handler_restores_its_own_context() {
        MID[] mids = MID.table("precise.t/H.outer.()V.3.inner.()V.2");
        RC rc = RC.current();
        IC saved = rc.top;
        IC outer = rc.enter(mids[0]);
        IC inner = rc.enter(mids[1]);
        assertSame(inner, rc.top);
        // inner throws without reaching its exit code; outer's handler starts with restore(outer)
        rc.restore(outer);
        assertSame(outer, rc.top);
        assertSame(inner, rc.enter(mids[1]));
        rc.exit(inner, 0);
        rc.exit(outer, 0);
        assertSame(saved, rc.top);
    }

    @Test
    void recursion_builds_a_chain_of_contexts() {
        MID[] mids = MID.table("precise.t/R.rec.(I)V.5");
        RC rc = RC.current();
        IC saved = rc.top;
        IC[] levels = new IC[4];
        for (int depth = 0; depth < levels.length; depth++) {
            levels[depth] = rc.enter(mids[0]);
        }
        for (int depth = levels.length - 1; depth >= 0; depth--) {
            rc.exit(levels[depth], depth + 1);
        }
        assertSame(saved, rc.top);
        for (int depth = 1; depth < levels.length; depth++) {
            assertSame(levels[depth - 1], levels[depth].parent);
            assertNotSame(levels[depth - 1], levels[depth]);
            assertEquals(1, levels[depth].calls);
            assertEquals(depth + 1, levels[depth].bytecodes);
        }
    }

    @Test
    void a_static_initializer_hangs_under_the_root_and_restores_the_saved_top() {
        MID[] mids = MID.table("precise.t/S.work.()V.5.<clinit>.()V.1");
        RC rc = RC.current();
        IC work = rc.enter(mids[0]);
        IC saved = rc.top; // what the initializer saves in a local
        IC init = rc.enterRoot(mids[1]);
        assertSame(rc, init.parent);
        assertSame(init, rc.top);
        init.count(1);
        rc.restore(saved);
        assertSame(work, rc.top);
        rc.exit(work, 0);
        assertEquals(1, init.calls);
        assertNull(rc.mid);
        assertNull(rc.parent);
    }

    @Test
    void a_leaf_method_is_counted_but_never_becomes_current() {
        MID[] mids = MID.table("default.t/L.caller.()V.4.leaf.()I.3");
        RC rc = RC.current();
        IC caller = rc.enter(mids[0]);
        IC leaf = RC.leaf(mids[1], 3);
        assertSame(caller, rc.top);
        assertSame(caller, leaf.parent);
        assertSame(leaf, RC.leaf(mids[1], 2));
        assertEquals(2, leaf.calls);
        assertEquals(5, leaf.bytecodes);
        rc.exit(caller, 0);
    }

    @Test
    void children_are_found_again_beyond_the_initial_capacity() {
        StringBuilder table = new StringBuilder("default.t/Many");
        for (int i = 0; i < 100; i++) {
            table.append(".m").append(i).append(".()V.1");
        }
        MID[] mids = MID.table(table.toString());
        IC parent = new IC(null, null);
        assertEquals(0, parent.children().length);
        for (int round = 0; round < 3; round++) {
            for (MID mid : mids) {
                parent.profileCall(mid);
            }
            // and the same child twice in a row, which the last-child cache answers
            parent.profileCall(mids[round]);
        }
        IC[] children = parent.children();
        assertEquals(100, children.length);
        Set<MID> seen = new HashSet<>();
        for (IC child : children) {
            boolean repeated = child.mid == mids[0] || child.mid == mids[1] || child.mid == mids[2];
            assertEquals(repeated ? 4 : 3, child.calls, child.mid.toString());
            assertSame(parent, child.parent);
            seen.add(child.mid);
        }
        assertEquals(new HashSet<>(Arrays.asList(mids)), seen);
    }

    @Test
    void every_thread_has_a_root_of_its_own() throws InterruptedException {
        RC mine = RC.current();
        AtomicReference<RC> theirs = new AtomicReference<>();
        Thread other = new Thread(() -> theirs.set(RC.current()));
        other.start();
        other.join();
        assertNotNull(theirs.get());
        assertNotSame(mine, theirs.get());
        assertSame(mine, RC.current());
    }

    @Test
    void threads_that_share_a_slot_keep_roots_of_their_own() throws InterruptedException {
        AtomicReference<RC> before = new AtomicReference<>();
        AtomicReference<RC> after = new AtomicReference<>();
        AtomicReference<RC> taker = new AtomicReference<>();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch taken = new CountDownLatch(1);
        Thread owner = new Thread(() -> {
            before.set(RC.current());
            entered.countDown();
            try {
                taken.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            after.set(RC.current());
        });
        owner.start();
        entered.await();
        // Thread ids are handed out in sequence: one of the next few thousand shares the slot.
        Thread sharer = null;
        for (int i = 0; i < 4 * RC.SLOT_COUNT && sharer == null; i++) {
            Thread candidate = new Thread(() -> taker.set(RC.current()));
            if (((candidate.getId() ^ owner.getId()) & (RC.SLOT_COUNT - 1)) == 0) sharer = candidate;
        }
        assertNotNull(sharer, "no thread id shares the owner's slot");
        sharer.start();
        sharer.join();
        taken.countDown();
        owner.join();
        assertSame(before.get(), after.get());
        assertNotSame(before.get(), taker.get());
        assertTrue(taker.get() != null && after.get() != null);
    }
}
