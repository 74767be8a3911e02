package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Probes: named exact metrics, written with their families, and handlers called safely. */
class ProbesTest {
    /** What {@link #record} saw last. */
    static Object receiver;
    static Object[] arguments;
    static String method;
    static IC currentWhileHandling;

    static void record(ProbeContext context, Object receiver, Object[] arguments) {
        ProbesTest.receiver = receiver;
        ProbesTest.arguments = arguments;
        method = context.method();
        currentWhileHandling = RC.current().top;
        context.add("sql:calls", 2);
    }

    static void fail(ProbeContext context, Object receiver, Object[] arguments) {
        throw new IllegalStateException("the handler's own bug");
    }

    /** Probes itself: the nested probe must not call it again. */
    static void nested(ProbeContext context, Object receiver, Object[] arguments) {
        context.add("nested", 1);
        RC.current().top.probe(null, new Object[0], ProbesTest.class.getName() + ".nested", ProbesTest.class);
    }

    @Test
    void named_metrics_are_written_with_their_family_and_unit() throws Exception {
        ProfileTree tree = new ProfileTree();
        IC root = new IC(null, null);
        MID[] mids = MID.table("precise+extra.t/Db.run.()V.2");
        IC run = root.profileCall(mids[0]);
        run.metric("locks");
        run.metric("locks");
        run.metric("sql:select");
        run.metric("allocations:int[]");
        tree.add("", root);
        StringWriter out = new StringWriter();
        ProfileWriter.write(tree, new LinkedHashMap<String, String>(), out);
        List<String> lines = new ArrayList<>();
        for (String line : out.toString().split("\n")) {
            if (line.startsWith("metric ") || line.startsWith("value ")) lines.add(line);
        }
        List<String> expected = new ArrayList<>();
        expected.add("metric 1 allocations exact objects");
        expected.add("metric 2 allocations:int[] exact objects");
        expected.add("metric 3 locks exact events");
        expected.add("metric 4 sql exact events");
        expected.add("metric 5 sql:select exact events");
        for (int metric = 1; metric <= 5; metric++) {
            expected.add("value 1 " + metric + " " + (metric == 3 ? 2 : 1));
        }
        assertEquals(expected, lines);
    }

    @Test
    void a_handler_gets_the_receiver_and_arguments_and_adds_in_the_probed_context() {
        // A context of its own, outside the thread's tree, which the test JVM's agent writes.
        IC query = new ExtraIC(MID.table("precise+extra.t/Db.query.(Ljava/lang/String;I)V.2")[0], null);
        RC rc = RC.current();
        IC top = rc.top;
        Object target = new Object();
        Object[] given = {"select 1", 7};
        query.probe(target, given, ProbesTest.class.getName() + ".record", ProbesTest.class);
        assertSame(target, receiver);
        assertArrayEquals(given, arguments);
        assertEquals("t.Db.query(Ljava/lang/String;I)V", method);
        // The handler ran under a scratch context, and the thread's is back.
        assertNull(currentWhileHandling.mid);
        assertSame(top, rc.top);
        assertEquals(1, query.metrics().size());
        assertEquals("sql:calls", query.metrics().name(0));
        assertEquals(2, query.metrics().count(0));
    }

    @Test
    void a_failing_or_missing_handler_is_counted_and_never_reaches_the_program() {
        IC ic = new ExtraIC(MID.table("precise+extra.t/Db.run.()V.2")[0], null);
        ic.probe(null, new Object[0], ProbesTest.class.getName() + ".fail", ProbesTest.class);
        ic.probe(null, new Object[0], ProbesTest.class.getName() + ".missing", ProbesTest.class);
        ic.probe(null, new Object[0], "no.such.Class.handle", ProbesTest.class);
        assertEquals(Probes.ERRORS, ic.metrics().name(0));
        assertEquals(3, ic.metrics().count(0));
        assertSame(RC.current(), RC.current().top);
    }

    @Test
    void a_probe_reached_from_a_handler_calls_no_handler() {
        IC ic = new ExtraIC(MID.table("precise+extra.t/Db.run.()V.2")[0], null);
        ic.probe(null, new Object[0], ProbesTest.class.getName() + ".nested", ProbesTest.class);
        assertEquals(1, ic.metrics().size());
        assertEquals("nested", ic.metrics().name(0));
        assertEquals(1, ic.metrics().count(0));
    }

    @Test
    void a_handler_may_add_to_its_own_metrics_only() {
        ProbeContext context = new ProbeContext(new IC(null, null));
        for (String name : new String[] {"calls", "bytecodes", "allocations", "allocations:int[]", "probe-errors",
                "two words", "", "sql:", ":select"}) {
            assertThrows(IllegalArgumentException.class, () -> context.add(name, 1), name);
        }
        context.add("sql:select", 1);
    }
}
