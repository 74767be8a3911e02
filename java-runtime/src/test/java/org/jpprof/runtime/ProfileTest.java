package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Agents: merging threads' trees, writing the profile format, output paths, agent selection. */
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
                    rc.exit(step, 1);
                }
                rc.exit(run, 2);
            }));
        }
        for (Thread thread : threads) thread.start();
        for (Thread thread : threads) thread.join();
        Path written = JP.writeProfile(); // where the build's jp.output says, or jp-<pid>.jpprof
        assertNotNull(written);
        ProfileFile profile = ProfileFile.read(written);
        ProfileFile.Context run = profile.get("t.Worker.run()V");
        assertEquals(4, run.calls);
        assertEquals(8, run.bytecodes);
        ProfileFile.Context step = profile.get("t.Worker.run()V", "t.Worker.step()V");
        assertEquals(40, step.calls);
        assertEquals(40, step.bytecodes);
        assertEquals("default", profile.meta.get("agent"));
        assertTrue(Long.parseLong(profile.meta.get("threads")) >= 4, profile.meta.toString());
    }

    @Test
    void the_trees_of_threads_that_end_inside_instrumented_code_are_merged_once_collected() throws Exception {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("short.jpprof").toString());
        MID[] mids = MID.table("default.t/Short.run.()V.3.step.(I)V.2");
        runShortLivedThreads(agent, mids, 200);
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (agent.running() > 0 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(5);
        }
        assertEquals(0, agent.running(), "threads still held after they ended");
        ProfileFile profile = ProfileFile.read(agent.write());
        assertEquals("200", profile.meta.get("threads"));
        assertEquals(Collections.singletonMap("Thread-#", 200L), profile.groups);
        assertEquals(2, profile.nodes.size());
        ProfileFile.Context run = profile.get("t.Short.run()V");
        assertEquals(200, run.calls);
        assertEquals(600, run.bytecodes);
        ProfileFile.Context step = profile.get("t.Short.run()V", "t.Short.step(I)V");
        assertEquals(400, step.calls);
        assertEquals(800, step.bytecodes);
    }

    /** In a method of its own, so that no local variable of the test keeps a thread reachable. */
    private static void runShortLivedThreads(DefaultAgent agent, MID[] mids, int count) throws InterruptedException {
        Thread[] threads = new Thread[count];
        for (int t = 0; t < count; t++) {
            threads[t] = new Thread(() -> {
                RC rc = new RC(Thread.currentThread());
                rc.attach(agent, Thread.currentThread());
                IC run = rc.enter(mids[0]);
                for (int i = 0; i < 2; i++) {
                    IC step = rc.enter(mids[1]);
                    rc.exit(step, 2);
                }
                run.count(3); // and the thread ends inside run, as at a System.exit: no return to the root
            });
            threads[t].start();
        }
        for (Thread thread : threads) thread.join();
    }

    @Test
    void the_written_file_follows_the_format_line_by_line() throws Exception {
        Path target = dir.resolve("sub/dir/p.jpprof");
        DefaultAgent agent = new DefaultAgent(1_000_000, target.toString());
        MID[] mids = MID.table("precise.t/F.main.([Ljava/lang/String;)V.4.rec.(I)J.3.<clinit>.()V.1");
        RC rc = new RC(Thread.currentThread());
        rc.attach(agent, Thread.currentThread());
        IC main = rc.enter(mids[0]);
        IC saved = rc.top;
        rc.enterRoot(mids[2]).count(1);
        rc.restore(saved);
        int depth = 20_000; // deep enough to overflow a recursive writer
        IC[] frames = new IC[depth];
        for (int i = 0; i < depth; i++) {
            frames[i] = rc.enter(mids[1]);
        }
        for (int i = depth - 1; i >= 0; i--) rc.exit(frames[i], 3);
        rc.exit(main, 4);
        String before = Instant.now().toString();

        assertEquals(target, agent.write());
        ProfileFile profile = ProfileFile.read(target);

        List<String> keys = Arrays.asList("agent", "jvm", "bba", "threads", "start", "end", "pid", "command");
        assertEquals(keys.subList(0, profile.meta.containsKey("command") ? 8 : 7), new ArrayList<>(profile.meta.keySet()));
        assertEquals("default", profile.meta.get("agent"));
        assertTrue(profile.meta.get("jvm").endsWith(" " + System.getProperty("java.version")));
        assertTrue(profile.meta.get("bba").matches("default|precise|mixed"));
        assertEquals("1", profile.meta.get("threads"));
        Instant start = Instant.parse(profile.meta.get("start"));
        Instant end = Instant.parse(profile.meta.get("end"));
        assertFalse(end.isBefore(start));
        assertFalse(end.isBefore(Instant.parse(before)));
        assertEquals(ManagementFactory.getRuntimeMXBean().getName().split("@")[0], profile.meta.get("pid"));
        assertEquals(3, profile.frames.size());
        String group = ThreadGroups.of(Thread.currentThread().getName());
        assertEquals(Collections.singletonMap(group, 1L), profile.groups);
        assertEquals(2 + depth, profile.nodes.size());
        // Top-level contexts are children of the thread roots, siblings in name order.
        assertEquals("t.F.<clinit>()V", profile.nodes.get(0).frame);
        assertEquals(0, profile.nodes.get(0).parent);
        ProfileFile.Node top = profile.getIn(group, "t.F.main([Ljava/lang/String;)V");
        assertEquals(0, top.parent);
        assertEquals(1, top.calls);
        assertEquals(4, top.bytecodes);
        ProfileFile.Node deepest = profile.nodes.get(profile.nodes.size() - 1);
        assertEquals("t.F.rec(I)J", deepest.frame);
        assertEquals(deepest.id - 1, deepest.parent);
        assertEquals(3, deepest.bytecodes);
        try (java.util.stream.Stream<Path> files = Files.list(target.getParent())) {
            assertEquals(1, files.count(), "no temporary file left beside the profile");
        }
    }

    @Test
    void frames_and_metadata_are_escaped_and_siblings_come_in_name_order() throws IOException {
        ProfileTree tree = new ProfileTree();
        ProfileTree.Node main = tree.root.child("a.B.main([Ljava/lang/String;)V", MID.NO_SITE);
        main.calls = 1;
        ProfileTree.Node odd = main.child("a.B.with\\back\nslash()V", MID.NO_SITE);
        odd.calls = 2;
        odd.bytecodes = 7;
        main.child("a.B.a()V", MID.NO_SITE).calls = -1; // 2^64 - 1, unsigned
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("agent", "default");
        meta.put("command", "Main a\\b\nc");
        StringWriter out = new StringWriter();
        ProfileWriter.write(tree, meta, out);
        assertEquals("jp-profile 1\nmeta agent default\nmeta command Main a\\\\b\\nc\n"
                + "frame 1 a.B.main([Ljava/lang/String;)V\nframe 2 a.B.a()V\nframe 3 a.B.with\\\\back\\nslash()V\n"
                + "node 1 0 1 1 0\nnode 2 1 2 18446744073709551615 0\nnode 3 1 3 2 7\nend 3\n", out.toString());
        assertEquals(7, ProfileFile.parse(out.toString()).get(main.frame, odd.frame).bytecodes);
    }

    @Test
    void the_output_path_takes_the_pid_and_directories_get_a_file_of_their_own() {
        String pid = DefaultAgent.pid();
        assertEquals(dir.resolve("p-" + pid + ".jpprof"), DefaultAgent.outputPath(dir.resolve("p-%p.jpprof").toString()));
        assertEquals(dir.resolve("plain.jpprof"), DefaultAgent.outputPath(dir.resolve("plain.jpprof").toString()));
        Path inDir = DefaultAgent.outputPath(dir.toString());
        assertEquals(dir, inDir.getParent());
        assertTrue(inDir.getFileName().toString().matches("jp-" + pid + "-\\d+\\.jpprof"), inDir.toString());
        Path inNewDir = DefaultAgent.outputPath(dir + "/profiles/");
        assertEquals(dir.resolve("profiles"), inNewDir.getParent());
        assertTrue(inNewDir.getFileName().toString().matches("jp-" + pid + "-\\d+\\.jpprof"), inNewDir.toString());
    }

    @Test
    void a_directory_output_is_created_and_written_into() {
        Path written = new DefaultAgent(1, dir + "/profiles/").write();
        assertNotNull(written);
        assertEquals(dir.resolve("profiles"), written.getParent());
        assertTrue(Files.isRegularFile(written));
    }

    @Test
    void a_profile_gets_the_permissions_of_any_new_file() throws Exception {
        Path written = new DefaultAgent(1, dir.resolve("p.jpprof").toString()).write();
        Path plain = Files.createFile(dir.resolve("plain")); // what the umask gives
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(written));
    }

    @Test
    void a_device_output_is_written_into_and_stays_a_device() throws Exception {
        Path devNull = Paths.get("/dev/null");
        assumeTrue(Files.exists(devNull) && !Files.isRegularFile(devNull));
        Object before = Files.readAttributes(devNull, "unix:rdev").get("rdev");
        assertEquals(devNull, new DefaultAgent(1, "/dev/null").write());
        assertFalse(Files.isRegularFile(devNull));
        assertEquals(before, Files.readAttributes(devNull, "unix:rdev").get("rdev"));
    }

    @Test
    void a_fifo_output_is_written_into_for_its_reader() throws Exception {
        Path fifo = dir.resolve("profile.fifo");
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        } catch (IOException e) {
            assumeTrue(false, "no mkfifo: " + e);
            return;
        }
        assumeTrue(mkfifo.waitFor() == 0, "mkfifo failed");
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            Future<byte[]> read = reader.submit(() -> Files.readAllBytes(fifo));
            assertEquals(fifo, new DefaultAgent(1, fifo.toString()).write());
            String text = new String(read.get(20, TimeUnit.SECONDS), StandardCharsets.UTF_8);
            assertTrue(text.startsWith("jp-profile 1\n") && text.endsWith("end 0\n"), text);
            assertFalse(Files.isRegularFile(fifo));
        } finally {
            reader.shutdownNow();
        }
    }

    @Test
    void an_unwritable_output_is_one_line_on_stderr_that_names_the_path() throws Exception {
        Path file = Files.createFile(dir.resolve("a-file"));
        Path target = file.resolve("p.jpprof");
        String[] written = new String[1];
        String err = stderrOf(() -> written[0] = String.valueOf(new DefaultAgent(1, target.toString()).write()));
        assertEquals("null", written[0]);
        assertTrue(err.startsWith("jp: cannot write the profile to " + target + ": "), err);
        assertEquals(1, err.split("\n").length, err);
    }

    @Test
    void an_unknown_agent_is_one_line_on_stderr_and_the_default_agent_runs_instead() throws Exception {
        Profiler[] loaded = new Profiler[2];
        String err = stderrOf(() -> {
            loaded[0] = Agents.load("no.such.Agent");
            loaded[1] = Agents.load("java.lang.String");
        });
        assertInstanceOf(DefaultAgent.class, loaded[0]);
        assertInstanceOf(DefaultAgent.class, loaded[1]);
        assertEquals("jp: agent no.such.Agent: no such class; using the default agent\n"
                + "jp: agent java.lang.String: does not implement org.jpprof.runtime.Profiler; using the default agent\n",
                err.replace(System.lineSeparator(), "\n"));
        assertInstanceOf(DefaultAgent.class, Agents.load(" default "));
        assertFalse(Agents.load("none") instanceof DefaultAgent);
    }

    @Test
    void a_custom_agent_class_is_called_on_its_thread_once_the_granularity_is_spent() throws Exception {
        CountingAgent agent = (CountingAgent) Agents.load(CountingAgent.class.getName());
        MID[] mids = MID.table("precise.t/Busy.loop.()V.100");
        long[] activation = new long[1];
        Thread thread = new Thread(() -> {
            RC rc = new RC(Thread.currentThread());
            rc.attach(agent, Thread.currentThread());
            IC loop = rc.enter(mids[0]);
            for (int i = 0; i < 25; i++) {
                rc.poll(loop, 0);
            }
            rc.exit(loop, 0);
            activation[0] = rc.activation;
        });
        thread.start();
        thread.join();
        assertSame(thread, agent.registered);
        assertEquals(2, agent.reports); // every 1,000 bytecodes: 2,600 spent (entry and 25 polls)
        assertEquals(1_000 - 600, activation[0]);
        assertSame(thread, agent.reportedOn);
        assertEquals(mids[0], agent.current.mid);
        assertSame(agent.root, agent.current.parent);
    }

    @Test
    void the_granularity_is_read_from_its_property() throws Exception {
        String previous = System.getProperty("jp.granularity");
        try {
            System.setProperty("jp.granularity", "5_000");
            assertEquals(5_000, Agents.granularity());
            assertEquals(5_000, ((DefaultAgent) Agents.load("default")).register(Thread.currentThread(), new RC(Thread.currentThread())));
            System.setProperty("jp.granularity", "-3");
            long[] granularity = new long[1];
            String err = stderrOf(() -> granularity[0] = Agents.granularity());
            assertEquals(Agents.DEFAULT_GRANULARITY, granularity[0]);
            assertTrue(err.startsWith("jp: jp.granularity=-3 is not a positive number"), err);
            System.clearProperty("jp.granularity");
            assertEquals(Agents.DEFAULT_GRANULARITY, Agents.granularity());
        } finally {
            if (previous == null) System.clearProperty("jp.granularity");
            else System.setProperty("jp.granularity", previous);
        }
    }

    @Test
    void instrumented_code_that_a_report_runs_triggers_no_report_of_its_own() {
        MID[] mids = MID.table("default.t/Agentish.helper.()V.5000");
        int[] reports = new int[1];
        RC rc = new RC(Thread.currentThread());
        rc.attach(new Profiler() {
            @Override
            public long register(Thread thread, RC root) {
                return 1;
            }

            @Override
            public long report(RC root, IC current) {
                reports[0]++;
                IC helper = root.enter(mids[0]); // would report again, and recurse, without the guard
                root.poll(helper, 0);
                root.exit(helper, 0);
                return 10_000;
            }
        }, Thread.currentThread());
        IC ic = rc.enter(mids[0]);
        rc.exit(ic, 0);
        assertEquals(1, reports[0]);
        assertEquals(10_000, rc.activation);
        // The report runs before the entry is counted, under the caller (the root here): its own
        // call counts there, in the same context as the call it came before.
        assertEquals(2, ic.calls);
        assertSame(rc, ic.parent);
        assertEquals(0, ic.children().length);
    }

    @Test
    void an_agent_that_throws_is_reported_and_the_program_goes_on() throws Exception {
        MID[] mids = MID.table("default.t/Victim.m.()V.10");
        RC rc = new RC(Thread.currentThread());
        String err = stderrOf(() -> {
            rc.attach(new Profiler() {
                @Override
                public long register(Thread thread, RC root) {
                    return 1;
                }

                @Override
                public long report(RC root, IC current) {
                    throw new IllegalStateException("agent bug");
                }
            }, Thread.currentThread());
            for (int i = 0; i < 3; i++) {
                rc.exit(rc.enter(mids[0]), 0);
            }
        });
        assertEquals(3, rc.children()[0].calls);
        assertEquals(Long.MAX_VALUE, rc.activation + 20, "no report after the failure");
        // The failure is said once per JVM; this is the only test whose agent fails.
        assertEquals("jp: the agent failed and stops reporting for this thread: java.lang.IllegalStateException: agent bug",
                err.trim());
    }

    /** What {@code action} printed on System.err. */
    private static String stderrOf(ThrowingRunnable action) throws Exception {
        PrintStream previous = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream capture = new PrintStream(bytes, true, "UTF-8")) {
            System.setErr(capture);
            action.run();
        } finally {
            System.setErr(previous);
        }
        return bytes.toString("UTF-8");
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** Reports every 1,000 bytecodes and remembers what it was given. */
    public static final class CountingAgent implements Profiler {
        volatile Thread registered;
        volatile RC root;
        volatile int reports;
        volatile Thread reportedOn;
        volatile IC current;

        @Override
        public long register(Thread thread, RC root) {
            registered = thread;
            this.root = root;
            return 1_000;
        }

        @Override
        public long report(RC root, IC current) {
            reports++;
            reportedOn = Thread.currentThread();
            this.current = current;
            return 1_000;
        }
    }
}
