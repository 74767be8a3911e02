package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Allocation counts: per context and type, merged over threads, written as exact metrics. */
class AllocationsTest {
    @TempDir
    Path dir;

    @Test
    void allocations_of_several_threads_add_up_per_context_and_type() throws Exception {
        Path target = dir.resolve("allocations.jpprof");
        DefaultAgent agent = new DefaultAgent(1_000_000, target.toString());
        MID[] mids = MID.table("precise+extra.t/Alloc.run.()V.2.make.()V.3");
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            threads.add(new Thread(() -> {
                RC rc = new RC(Thread.currentThread());
                rc.attach(agent, Thread.currentThread());
                for (int again = 0; again < 2; again++) { // returns to the root: merged as it goes
                    IC run = rc.enter(mids[0]);
                    run.metric("allocations:int[]");
                    for (int i = 0; i < 5; i++) {
                        IC make = rc.enter(mids[1]);
                        make.metric("allocations:java.lang.String");
                        make.metric(new String("allocations:int[]")); // a name equal, not the same object
                        make.metric("allocations:java.lang.String");
                        rc.exit(make, 3);
                    }
                    rc.exit(run, 2);
                }
            }));
        }
        for (Thread thread : threads) thread.start();
        for (Thread thread : threads) thread.join();

        agent.write();
        List<String> lines = Files.readAllLines(target);
        assertEquals("jp-profile 4", lines.get(0));
        List<String> metrics = lines.stream().filter(l -> l.startsWith("metric ")).collect(Collectors.toList());
        List<String> expected = new ArrayList<>();
        expected.add("metric 1 allocations exact objects");
        expected.add("metric 2 allocations:int[] exact objects");
        expected.add("metric 3 allocations:java.lang.String exact objects");
        assertEquals(expected, metrics);
        int run = nodeOf(lines, "t.Alloc.run()V");
        int make = nodeOf(lines, "t.Alloc.make()V");
        List<String> values = lines.stream().filter(l -> l.startsWith("value ")).collect(Collectors.toList());
        expected.clear();
        // 6 runs (3 threads, twice), each making 5 times.
        expected.add("value " + run + " 1 6");
        expected.add("value " + run + " 2 6");
        expected.add("value " + make + " 1 " + 3 * 30);
        expected.add("value " + make + " 2 30");
        expected.add("value " + make + " 3 " + 2 * 30);
        assertEquals(expected, values);
    }

    @Test
    void a_reset_context_hands_its_allocations_over() {
        IC root = new IC(null, null);
        MID[] mids = MID.table("precise+extra.t/Alloc.run.()V.2");
        IC run = root.profileCall(mids[0]);
        run.metric("allocations:byte[]");
        run.metric("allocations:byte[]");
        IC taken = root.takeCounts();
        assertNull(run.metrics());
        MetricCounts moved = taken.children()[0].metrics();
        assertEquals(1, moved.size());
        assertEquals("allocations:byte[]", moved.name(0));
        assertEquals(2, moved.count(0));
    }

    @Test
    void a_tree_without_allocations_has_no_metrics() throws Exception {
        ProfileTree tree = new ProfileTree();
        tree.root.child("a.B.m()V", MID.NO_SITE).calls = 1;
        java.io.StringWriter out = new java.io.StringWriter();
        ProfileWriter.write(tree, new java.util.LinkedHashMap<String, String>(), out);
        assertEquals("jp-profile 1\nframe 1 a.B.m()V\nnode 1 0 1 1 0\nend 1\n", out.toString());
    }

    @Test
    void many_types_grow_the_table_and_keep_their_counts() {
        MetricCounts counts = null;
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 20; i++) {
                MetricCounts one = new MetricCounts();
                one.add("T" + i, i);
                counts = MetricCounts.add(counts, one);
            }
        }
        assertEquals(20, counts.size());
        for (int i = 0; i < 20; i++) {
            assertEquals("T" + i, counts.name(i));
            assertEquals(2 * i, counts.count(i));
        }
    }

    private static int nodeOf(List<String> lines, String frame) {
        String id = null;
        for (String line : lines) {
            if (line.startsWith("frame ") && line.endsWith(" " + frame)) id = line.split(" ")[1];
            if (id != null && line.startsWith("node ") && line.split(" ")[3].equals(id)) {
                return Integer.parseInt(line.split(" ")[1]);
            }
        }
        throw new AssertionError("no node of " + frame + " in " + lines);
    }
}
