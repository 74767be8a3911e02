package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Merging threads' trees and writing the profile format. */
class ProfileTest {
    @TempDir
    Path dir;

    @Test
    void the_trees_of_several_threads_merge_by_calling_context() throws Exception {
        MID[] mids = MID.table("precise.t/Worker.run.()V.2.step.()V.1");
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                RC rc = RC.current();
                IC run = rc.enter(mids[0]);
                for (int i = 0; i < 10; i++) {
                    IC step = rc.enter(mids[1]);
                    step.count(1);
                    rc.exit(step);
                }
                rc.exit(run);
            }));
        }
        for (Thread thread : threads) thread.start();
        for (Thread thread : threads) thread.join();
        DefaultAgent agent = (DefaultAgent) Agents.profiler();
        String previous = System.getProperty("jp.output");
        Path target = dir.resolve("merged.jpprof");
        System.setProperty("jp.output", target.toString());
        try {
            assertEquals(target, agent.write());
        } finally {
            System.setProperty("jp.output", previous == null ? "" : previous);
        }
        List<String> lines = Files.readAllLines(target, StandardCharsets.UTF_8);
        assertEquals("jp-profile 1", lines.get(0));
        assertTrue(lines.contains("meta agent default"), lines.toString());
        int run = frameId(lines, "t.Worker.run()V");
        int step = frameId(lines, "t.Worker.step()V");
        String runNode = lines.stream().filter(l -> l.matches("node \\d+ 0 " + run + " .*")).findFirst().get();
        assertTrue(runNode.endsWith(" 4 0"), runNode);
        String runId = runNode.split(" ")[1];
        assertTrue(lines.contains("node " + (Integer.parseInt(runId) + 1) + " " + runId + " " + step + " 40 40")
                || lines.stream().anyMatch(l -> l.matches("node \\d+ " + runId + " " + step + " 40 40")), lines.toString());
        assertEquals("end " + lines.stream().filter(l -> l.startsWith("node ")).count(), lines.get(lines.size() - 1));
    }

    private static int frameId(List<String> lines, String frame) {
        for (String line : lines) {
            if (line.startsWith("frame ") && line.endsWith(" " + frame)) {
                return Integer.parseInt(line.split(" ")[1]);
            }
        }
        throw new AssertionError(frame + " not in " + lines);
    }

    @Test
    void frames_and_metadata_are_escaped_and_nodes_follow_their_parents() throws IOException {
        ProfileTree tree = new ProfileTree();
        ProfileTree.Node main = tree.root.child("a.B.main([Ljava/lang/String;)V");
        main.calls = 1;
        ProfileTree.Node odd = main.child("a.B.with\\back\nslash()V");
        odd.calls = 2;
        odd.bytecodes = 7;
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("agent", "default");
        StringWriter out = new StringWriter();
        ProfileWriter.write(tree, meta, out);
        assertEquals("jp-profile 1\nmeta agent default\n"
                + "frame 1 a.B.main([Ljava/lang/String;)V\nframe 2 a.B.with\\\\back\\nslash()V\n"
                + "node 1 0 1 1 0\nnode 2 1 2 2 7\nend 2\n", out.toString());
    }

    @Test
    void the_output_path_takes_the_pid_and_directories_get_a_file_of_their_own() {
        String previous = System.getProperty("jp.output");
        try {
            System.setProperty("jp.output", dir.resolve("p-%p.jpprof").toString());
            String name = DefaultAgent.outputPath().getFileName().toString();
            assertTrue(name.matches("p-\\d+\\.jpprof"), name);
            System.setProperty("jp.output", dir.toString());
            Path inDir = DefaultAgent.outputPath();
            assertEquals(dir, inDir.getParent());
            assertTrue(inDir.getFileName().toString().matches("jp-\\d+-\\d+\\.jpprof"), inDir.toString());
        } finally {
            System.setProperty("jp.output", previous == null ? "" : previous);
        }
    }

    @Test
    void an_unknown_agent_falls_back_to_the_default_one_and_a_custom_one_is_loaded() {
        assertInstanceOf(DefaultAgent.class, Agents.load("no.such.Agent"));
        assertInstanceOf(CountingAgent.class, Agents.load(CountingAgent.class.getName()));
    }

    @Test
    void a_custom_agent_is_called_back_on_its_thread_once_the_granularity_is_spent() {
        CountingAgent agent = new CountingAgent();
        MID[] mids = MID.table("precise.t/Busy.loop.()V.100");
        RC rc = new RC(-1);
        rc.attach(agent, Thread.currentThread());
        IC loop = rc.enter(mids[0]);
        for (int i = 0; i < 25; i++) {
            rc.poll(loop);
        }
        rc.exit(loop);
        assertEquals(2, agent.reports); // every 1,000 bytecodes: 2,600 spent (entry and 25 polls)
        assertEquals(1_000 - 600, rc.activation);
    }

    /** Reports every 1,000 bytecodes and counts the reports. */
    public static final class CountingAgent implements Profiler {
        int reports;

        @Override
        public long register(Thread thread, RC root) {
            return 1_000;
        }

        @Override
        public long report(RC root, IC current) {
            reports++;
            return 1_000;
        }
    }
}
