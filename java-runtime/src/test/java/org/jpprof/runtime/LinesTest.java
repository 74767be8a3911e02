package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-line counts: counted per context and thread, merged per method, written as line records. */
class LinesTest {
    @TempDir
    Path dir;

    @Test
    void lines_counted_by_several_threads_in_several_contexts_add_up_per_method() throws Exception {
        Path target = dir.resolve("lines.jpprof");
        DefaultAgent agent = new DefaultAgent(1_000_000, target.toString());
        MID[] mids = MID.table("precise+extra.t/Lines.run.()V.2.a.()V.2.step.()V.3");
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                RC rc = new RC(Thread.currentThread());
                rc.attach(agent, Thread.currentThread());
                for (int again = 0; again < 3; again++) { // returns to the root: merged as it goes
                    IC run = rc.enter(mids[0]);
                    run.line(10, 2);
                    for (int i = 0; i < 10; i++) {
                        IC step = rc.enter(mids[2]);
                        step.line(30, 2);
                        step.line(31, 1);
                        rc.exit(step, 3);
                    }
                    IC a = rc.enter(mids[1]);
                    IC step = rc.enter(mids[2]);
                    step.line(31, 1);
                    step.line(30, 2);
                    rc.exit(step, 3);
                    rc.exit(a, 0);
                    rc.exit(run, 2);
                }
            }));
        }
        for (Thread thread : threads) thread.start();
        for (Thread thread : threads) thread.join();

        agent.write();
        assertEquals(Collections.singletonMap("Thread-#", 4L), ProfileFile.read(target).groups);
        List<String> lines = Files.readAllLines(target);
        assertEquals("jp-profile 3", lines.get(0));
        int run = frameId(lines, "t.Lines.run()V");
        int step = frameId(lines, "t.Lines.step()V");
        List<String> records = lines.stream().filter(l -> l.startsWith("line ")).collect(Collectors.toList());
        // step: 11 calls a run, 12 runs (4 threads, 3 times), both contexts merged.
        List<String> expected = new ArrayList<>();
        expected.add("line " + run + " 10 24");
        expected.add("line " + step + " 30 " + 2 * 11 * 12);
        expected.add("line " + step + " 31 " + 11 * 12);
        assertEquals(expected, records);
        assertEquals("end", lines.get(lines.size() - 1).split(" ")[0]);
    }

    @Test
    void a_tree_without_lines_is_written_as_version_1() throws Exception {
        ProfileTree tree = new ProfileTree();
        tree.root.child("a.B.m()V", MID.NO_SITE).calls = 1;
        StringWriter out = new StringWriter();
        ProfileWriter.write(tree, new LinkedHashMap<String, String>(), out);
        assertEquals("jp-profile 1\nframe 1 a.B.m()V\nnode 1 0 1 1 0\nend 1\n", out.toString());
    }

    @Test
    void lines_out_of_order_and_far_apart_widen_the_range_both_ways() {
        IC ic = new ExtraIC(null, null);
        ic.line(20, 1);
        ic.line(18, 2);
        ic.line(25, 3);
        ic.line(20, 4);
        LineCounts counts = ic.lines();
        assertEquals(18, counts.first);
        assertArrayEquals(new long[] {2, 0, 5, 0, 0, 0, 0, 3}, counts.counts);
    }

    @Test
    void adding_counts_never_keeps_or_changes_the_counts_added() {
        IC from = new ExtraIC(null, null);
        from.line(5, 1);
        LineCounts sum = LineCounts.add(null, from.lines());
        from.line(5, 1);
        assertEquals(1, sum.counts[0]);
        LineCounts wider = LineCounts.add(sum, from.lines());
        assertSame(sum, wider, "a sum that covers the lines added is added into");
        assertEquals(3, wider.counts[0]);
        from.line(3, 7);
        LineCounts widened = LineCounts.add(sum, from.lines());
        assertEquals(3, widened.first);
        assertArrayEquals(new long[] {7, 0, 5}, widened.counts);
        assertArrayEquals(new long[] {7, 0, 2}, from.lines().counts);
    }

    private static int frameId(List<String> lines, String name) {
        for (String line : lines) {
            if (line.startsWith("frame ") && line.endsWith(" " + name)) return Integer.parseInt(line.split(" ")[1]);
        }
        throw new AssertionError("no frame " + name + " in " + lines);
    }
}
