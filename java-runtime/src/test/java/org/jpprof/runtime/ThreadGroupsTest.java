package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Thread groups: how thread names make them, and how the default agent keeps them apart. */
class ThreadGroupsTest {
    @TempDir
    Path dir;

    private final MID[] pool = MID.table("precise.t/Pool.run.()V.2.step.()V.1");
    private final MID[] app = MID.table("precise.t/App.main.()V.3");

    @Test
    void every_run_of_ascii_digits_becomes_one_hash() {
        assertEquals("pool-#-thread-#", ThreadGroups.of("pool-1-thread-12"));
        assertEquals("ForkJoinPool.commonPool-worker-#", ThreadGroups.of("ForkJoinPool.commonPool-worker-3"));
        assertEquals("Thread-#", ThreadGroups.of("Thread-0"));
        assertEquals("#abc#", ThreadGroups.of("007abc42"));
        assertEquals("#", ThreadGroups.of("2024"));
        String main = "main";
        assertSame(main, ThreadGroups.of(main), "a name without digits is its own group, not a copy");
        assertEquals("(unnamed)", ThreadGroups.of(""));
        // Digits of other scripts (Arabic-Indic, fullwidth) stay as they are.
        assertEquals("worker-\u0663-\uff17-#", ThreadGroups.of("worker-\u0663-\uff17-9"));
    }

    @Test
    void threads_of_one_pattern_share_a_group_and_each_group_has_only_its_own_contexts() throws Exception {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("p.jpprof").toString());
        for (String name : Arrays.asList("worker-1", "worker-2")) {
            runOn(name, () -> {
                RC rc = attached(agent);
                IC run = rc.enter(pool[0]);
                rc.exit(rc.enter(pool[1]), 1);
                rc.exit(run, 2);
            });
        }
        runOn("main", () -> {
            RC rc = attached(agent);
            IC main = rc.enter(app[0]);
            rc.exit(rc.enter(pool[1]), 1);
            rc.exit(main, 3);
            rc.exit(rc.enter(pool[0]), 5); // the workers' top-level method, in another group
        });

        ProfileFile profile = ProfileFile.read(agent.write());
        assertEquals("3", profile.meta.get("threads"));
        Map<String, Long> groups = new LinkedHashMap<>();
        groups.put("main", 1L);
        groups.put("worker-#", 2L);
        assertEquals(groups, profile.groups);
        assertEquals(Arrays.asList("t.Pool.run()V", "t.Pool.run()V > t.Pool.step()V"), profile.paths("worker-#"));
        assertEquals(Arrays.asList("t.App.main()V", "t.App.main()V > t.Pool.step()V", "t.Pool.run()V"),
                profile.paths("main"));
        assertEquals(2, profile.getIn("worker-#", "t.Pool.run()V").calls);
        assertEquals(4, profile.getIn("worker-#", "t.Pool.run()V").bytecodes);
        assertEquals(2, profile.getIn("worker-#", "t.Pool.run()V", "t.Pool.step()V").calls);
        assertEquals(1, profile.getIn("main", "t.Pool.run()V").calls);
        assertEquals(5, profile.getIn("main", "t.Pool.run()V").bytecodes);
        // Merged over the groups, the top-level method adds up.
        assertEquals(2, profile.get("t.Pool.run()V").nodes.size());
        assertEquals(3, profile.get("t.Pool.run()V").calls);
        assertEquals(9, profile.get("t.Pool.run()V").bytecodes);
        assertEquals(1, profile.get("t.App.main()V", "t.Pool.step()V").calls);
    }

    @Test
    void a_thread_without_a_name_is_in_the_unnamed_group() throws Exception {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("p.jpprof").toString());
        runOn("", () -> {
            RC rc = attached(agent);
            rc.exit(rc.enter(app[0]), 1);
        });
        ProfileFile profile = ProfileFile.read(agent.write());
        assertEquals(Collections.singletonMap("(unnamed)", 1L), profile.groups);
        assertEquals(1, profile.getIn("(unnamed)", "t.App.main()V").calls);
    }

    @Test
    void a_renamed_thread_stays_in_its_first_group() throws Exception {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("p.jpprof").toString());
        runOn("before-1", () -> {
            RC rc = attached(agent);
            rc.exit(rc.enter(app[0]), 1); // handed over at the first return
            Thread.currentThread().setName("after");
            rc.exit(rc.enter(app[0]), 1); // and at the second
        });
        ProfileFile profile = ProfileFile.read(agent.write());
        assertEquals(Collections.singletonMap("before-#", 1L), profile.groups);
        assertEquals(2, profile.getIn("before-#", "t.App.main()V").calls);
    }

    @Test
    void threads_beyond_the_kept_groups_go_to_other_threads() throws Exception {
        DefaultAgent agent = new DefaultAgent(1_000_000, dir.resolve("p.jpprof").toString());
        int names = DefaultAgent.MAX_GROUPS + 10;
        for (int i = 0; i < names; i++) {
            runOn(lettersOnly(i), () -> {
                RC rc = attached(agent);
                rc.exit(rc.enter(app[0]), 1);
            });
        }
        runOn(lettersOnly(0), () -> {
            RC rc = attached(agent);
            rc.exit(rc.enter(app[0]), 1);
        });
        ProfileFile profile = ProfileFile.read(agent.write());
        assertEquals(String.valueOf(names + 1), profile.meta.get("threads"));
        assertEquals(DefaultAgent.MAX_GROUPS + 1, profile.groups.size());
        assertEquals(10, profile.groups.get("(other threads)").longValue());
        assertEquals(10, profile.getIn("(other threads)", "t.App.main()V").calls);
        assertEquals(2, profile.groups.get(lettersOnly(0)).longValue(), "a kept group takes new threads");
        assertEquals(2, profile.getIn(lettersOnly(0), "t.App.main()V").calls);
        assertEquals(names + 1, profile.get("t.App.main()V").calls);
    }

    @Test
    void a_tree_with_groups_is_written_as_version_3_group_by_group() throws Exception {
        ProfileTree tree = new ProfileTree();
        ProfileTree.Group workers = tree.group("pool-#-thread-#");
        workers.threads = 4;
        ProfileTree.Node work = workers.root.child("a.B.work()V", MID.NO_SITE);
        work.calls = 40;
        work.child("a.B.step()V", MID.NO_SITE).calls = 80;
        ProfileTree.Group main = tree.group("main\\x");
        main.threads = 1;
        ProfileTree.Node entry = main.root.child("a.B.main()V", MID.NO_SITE);
        entry.calls = 1;
        entry.child("a.B.work()V", MID.NO_SITE).calls = 10;
        main.root.child("a.B.work()V", MID.NO_SITE).calls = 2;
        IC counted = new ExtraIC(null, null);
        counted.line(7, 3);
        tree.lines.put("a.B.work()V", counted.lines());
        StringWriter out = new StringWriter();
        ProfileWriter.write(tree, new LinkedHashMap<String, String>(), out);
        assertEquals("jp-profile 3\n"
                + "frame 1 a.B.main()V\nframe 2 a.B.work()V\nframe 3 a.B.step()V\n"
                + "thread 1 main\\\\x\nnode 1 0 1 1 0\nnode 2 1 2 10 0\nnode 3 0 2 2 0\n"
                + "thread 4 pool-#-thread-#\nnode 4 0 2 40 0\nnode 5 4 3 80 0\n"
                + "line 2 7 3\nend 5\n", out.toString());
        ProfileFile profile = ProfileFile.parse(out.toString());
        assertEquals(42, profile.get("a.B.work()V").calls);
        assertEquals(Collections.singletonMap("a.B.work()V 7", 3L), profile.lines);
        assertEquals(Arrays.asList("a.B.work()V", "a.B.work()V > a.B.step()V"), profile.paths("pool-#-thread-#"));
    }

    /** A root for the calling thread, registered with {@code agent}. */
    private static RC attached(DefaultAgent agent) {
        RC rc = new RC(Thread.currentThread());
        rc.attach(agent, Thread.currentThread());
        return rc;
    }

    /** Runs {@code task} on a new thread named {@code name}, and waits for it. */
    private static void runOn(String name, Runnable task) throws InterruptedException {
        List<Throwable> failures = new ArrayList<>();
        Thread thread = new Thread(task, name);
        thread.setUncaughtExceptionHandler((t, e) -> failures.add(e));
        thread.start();
        thread.join();
        assertEquals(Collections.emptyList(), failures);
    }

    /** A thread name without digits, one per {@code i}: {@code t-a}, {@code t-b}, ... {@code t-ab}... */
    private static String lettersOnly(int i) {
        StringBuilder name = new StringBuilder("t-");
        do {
            name.append((char) ('a' + i % 26));
            i /= 26;
        } while (i > 0);
        return name.toString();
    }
}
