package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The periodic agent: counts handed over by running threads, the snapshot series, the profile at exit. */
class PeriodicAgentTest {
    @TempDir
    Path dir;

    private static final MID[] PHASES = MID.table("precise.t/Phases.main.()V.10.a.()V.10.b.()V.10");

    @Test
    void taking_counts_moves_them_and_leaves_out_what_did_not_count_since() {
        RC rc = new RC(Thread.currentThread());
        IC main = rc.enter(PHASES[0]);
        rc.exit(rc.enter(PHASES[1]), 3);
        IC taken = rc.takeCounts();
        assertEquals(1, child(taken, "t.Phases.main()V").calls);
        assertEquals(3, child(child(taken, "t.Phases.main()V"), "t.Phases.a()V").bytecodes);
        assertEquals(0, main.calls);
        assertEquals(0, child(main, "t.Phases.a()V").bytecodes);

        rc.exit(rc.enter(PHASES[2]), 2);
        IC again = rc.takeCounts();
        IC mainAgain = child(again, "t.Phases.main()V");
        assertEquals(0, mainAgain.calls, "on the way to b() only");
        assertEquals(1, mainAgain.children().length, "a() counted nothing since");
        assertEquals(2, child(mainAgain, "t.Phases.b()V").bytecodes);
        assertEquals(0, rc.takeCounts().children().length, "nothing counted since");
    }

    @Test
    void each_phase_is_in_its_own_snapshots_and_the_series_adds_up_to_the_default_agents_profile() throws Exception {
        Path output = dir.resolve("p.jpprof");
        PeriodicAgent periodic = new PeriodicAgent(1_000_000, output.toString(), 50, 0);
        runOn("main", () -> phases(attached(periodic)));
        periodic.writeAtExit();
        DefaultAgent plain = new DefaultAgent(1_000_000, dir.resolve("default.jpprof").toString());
        runOn("main", () -> phases(attached(plain)));

        Map<String, String> atExit = counts(Collections.singletonList(ProfileFile.read(output)));
        assertEquals(counts(Collections.singletonList(ProfileFile.read(plain.write()))), atExit,
                "the profile at exit is the default agent's");
        List<ProfileFile> series = series(output);
        assertTrue(series.size() > 3, "snapshots: " + series.size());
        assertEquals(atExit, counts(series), "the snapshots add up to the profile at exit");
        int lastA = 0;
        int firstB = Integer.MAX_VALUE;
        int aOnly = 0;
        int bOnly = 0;
        for (int i = 0; i < series.size(); i++) {
            ProfileFile snapshot = series.get(i);
            assertEquals(Integer.toString(i + 1), snapshot.meta.get("snapshot"));
            assertEquals("periodic", snapshot.meta.get("agent"));
            assertEquals(i == series.size() - 1 ? "exit" : "bytecodes", snapshot.meta.get("trigger"));
            boolean a = calls(snapshot, "t.Phases.main()V", "t.Phases.a()V") > 0;
            boolean b = calls(snapshot, "t.Phases.main()V", "t.Phases.b()V") > 0;
            if (a) lastA = i;
            if (b) firstB = Math.min(firstB, i);
            if (a && !b) aOnly++;
            if (b && !a) bOnly++;
        }
        assertTrue(lastA <= firstB, "a() ran before b(): last a() in " + lastA + ", first b() in " + firstB);
        assertTrue(aOnly > 1 && bOnly > 1, aOnly + " snapshots with a() alone, " + bOnly + " with b() alone");
    }

    @Test
    void the_timer_asks_running_threads_for_their_counts() throws Exception {
        Path output = dir.resolve("timed.jpprof");
        PeriodicAgent agent = new PeriodicAgent(Long.MAX_VALUE, output.toString(), 0, 5);
        agent.startTimer();
        AtomicBoolean stop = new AtomicBoolean();
        Thread worker = new Thread(() -> {
            RC rc = attached(agent);
            IC main = rc.enter(PHASES[0]);
            while (!stop.get()) {
                rc.exit(rc.enter(PHASES[1]), 1);
                rc.poll(main, 1);
            }
            rc.exit(main, 1);
        }, "worker");
        worker.start();
        // Until a snapshot of the timer's has a() from the worker, still running: it never
        // returns to its root and its counter never runs out, so only the timer's asks hand it over.
        long deadline = System.nanoTime() + 60_000_000_000L;
        boolean seen = false;
        while (!seen && System.nanoTime() < deadline) {
            Thread.sleep(5);
            for (ProfileFile snapshot : series(output)) {
                seen |= "timer".equals(snapshot.meta.get("trigger"))
                        && calls(snapshot, "t.Phases.main()V", "t.Phases.a()V") > 0;
            }
        }
        stop.set(true);
        worker.join();
        agent.writeAtExit();
        assertTrue(seen, "a snapshot of the timer's has the running worker's a()");
        List<ProfileFile> series = series(output);
        assertEquals(counts(Collections.singletonList(ProfileFile.read(output))), counts(series));
        assertEquals("exit", series.get(series.size() - 1).meta.get("trigger"));
        long threads = 0;
        for (ProfileFile snapshot : series) threads += Long.parseLong(snapshot.meta.get("threads"));
        assertEquals(1, threads, "each thread counts in the snapshot of the interval it started in");
    }

    @Test
    void periodic_is_a_built_in_agent() {
        assertInstanceOf(PeriodicAgent.class, Agents.load(" periodic "));
        assertEquals(dir.resolve("app.snapshots"), SnapshotSeries.directory(dir.resolve("app.jpprof").toString()));
    }

    /** Phase A calls only a(), phase B only b(), each long enough for several reports. */
    private static void phases(RC rc) {
        IC main = rc.enter(PHASES[0]);
        for (int i = 0; i < 100; i++) {
            rc.exit(rc.enter(PHASES[1]), 3);
            rc.poll(main, 1);
        }
        for (int i = 0; i < 100; i++) {
            rc.exit(rc.enter(PHASES[2]), 4);
            rc.poll(main, 1);
        }
        rc.exit(main, 2);
    }

    /** The snapshots of the profile {@code output}, in order. */
    private static List<ProfileFile> series(Path output) throws IOException {
        Path dir = SnapshotSeries.directory(output.toString());
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> all = Files.newDirectoryStream(dir, "snapshot-*.jpprof")) {
                for (Path file : all) files.add(file);
            }
        }
        Collections.sort(files);
        List<ProfileFile> series = new ArrayList<>();
        for (Path file : files) series.add(ProfileFile.read(file));
        return series;
    }

    /** {@code "calls bytecodes"} by thread group and path of frames, summed over {@code profiles}; zeros left out. */
    private static Map<String, String> counts(List<ProfileFile> profiles) {
        Map<String, long[]> sums = new TreeMap<>();
        for (ProfileFile profile : profiles) {
            Map<Integer, String> paths = new HashMap<>();
            for (ProfileFile.Node node : profile.nodes) {
                String path = node.parent == 0 ? node.frame : paths.get(node.parent) + " > " + node.frame;
                paths.put(node.id, path);
                long[] sum = sums.computeIfAbsent(node.group + ": " + path, key -> new long[2]);
                sum[0] += node.calls;
                sum[1] += node.bytecodes;
            }
        }
        Map<String, String> counts = new TreeMap<>();
        sums.forEach((path, sum) -> {
            if (sum[0] != 0 || sum[1] != 0) counts.put(path, sum[0] + " " + sum[1]);
        });
        return counts;
    }

    private static long calls(ProfileFile profile, String... path) {
        ProfileFile.Context context = profile.find(path);
        return context == null ? 0 : context.calls;
    }

    private static IC child(IC parent, String frame) {
        for (IC child : parent.children()) {
            if (child.mid.frame().equals(frame)) return child;
        }
        throw new AssertionError("no child " + frame);
    }

    private static RC attached(DefaultAgent agent) {
        RC rc = new RC(Thread.currentThread());
        rc.attach(agent, Thread.currentThread());
        return rc;
    }

    private static void runOn(String name, Runnable task) throws InterruptedException {
        List<Throwable> failures = new ArrayList<>();
        Thread thread = new Thread(task, name);
        thread.setUncaughtExceptionHandler((t, e) -> failures.add(e));
        thread.start();
        thread.join();
        assertEquals(Collections.emptyList(), failures);
    }
}
