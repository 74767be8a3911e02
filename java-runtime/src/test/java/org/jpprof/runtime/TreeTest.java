package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The calling-context tree, driven the way instrumented code drives it. */
class TreeTest {
    @Test
    void a_table_gives_one_identifier_per_method_with_its_class_in_binary_form() {
        MID[] mids = MID.table("precise.a/b/C$D.<init>.()V.4.run.(Ljava/lang/String;)I.12");
        assertEquals(2, mids.length);
        assertEquals("a.b.C$D", mids[1].className);
        assertEquals("run", mids[1].name);
        assertEquals("(Ljava/lang/String;)I", mids[1].descriptor);
        assertEquals(12, mids[1].bound);
        assertEquals("a.b.C$D.run(Ljava/lang/String;)I", mids[1].frame);
        assertThrows(IllegalArgumentException.class, () -> MID.table("precise.a/B.m.()V"));
    }

    @Test
    void enter_and_exit_restore_the_top_context() {
        MID[] mids = MID.table("default.t/A.main.()V.3.f.()V.2");
        RC rc = RC.current();
        assertSame(rc, RC.current());
        IC top = rc.top;
        IC main = rc.enter(mids[0]);
        main.count(3);
        IC f = rc.enter(mids[1]);
        assertSame(main, f.parent);
        assertSame(f, rc.top);
        rc.exit(f);
        rc.exit(f); // idempotent: a return that throws after the exit code exits again
        assertSame(main, rc.top);
        assertSame(f, rc.enter(mids[1]));
        rc.exit(f);
        rc.exit(main);
        assertSame(top, rc.top);
        assertEquals(2, f.calls);
        assertEquals(3, main.bytecodes);
    }

    @Test
    void recursion_builds_a_chain_and_a_static_initializer_hangs_under_the_root() {
        MID[] mids = MID.table("precise.t/R.rec.(I)V.5.<clinit>.()V.1");
        RC rc = RC.current();
        IC saved = rc.top;
        IC a = rc.enter(mids[0]);
        IC b = rc.enter(mids[0]);
        IC init = rc.enterRoot(mids[1]);
        assertSame(rc, init.parent);
        rc.restore(b);
        assertSame(a, b.parent);
        rc.exit(b);
        rc.exit(a);
        assertSame(saved, rc.top);
    }

    @Test
    void children_are_found_again_beyond_the_initial_capacity() {
        StringBuilder table = new StringBuilder("default.t/Many");
        for (int i = 0; i < 100; i++) {
            table.append(".m").append(i).append(".()V.1");
        }
        MID[] mids = MID.table(table.toString());
        IC parent = new IC(null, null);
        for (int round = 0; round < 3; round++) {
            for (MID mid : mids) {
                parent.profileCall(mid);
            }
        }
        IC[] children = parent.children();
        assertEquals(100, children.length);
        Set<MID> seen = new HashSet<>();
        for (IC child : children) {
            assertEquals(3, child.calls);
            seen.add(child.mid);
        }
        assertEquals(new HashSet<>(Arrays.asList(mids)), seen);
    }
}
