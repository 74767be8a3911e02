package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileRunsTest {
    @TempDir
    Path base;

    @Test
    void each_run_has_its_own_directory_and_a_report_reads_the_newest_with_profiles() throws IOException {
        assertNull(ProfileRuns.latest(base));
        Path first = ProfileRuns.start(base);
        Path second = ProfileRuns.start(base);
        assertNotEquals(first, second);
        assertNull(ProfileRuns.latest(base), "runs without profiles");
        Files.write(first.resolve("a.jpprof"), new byte[0]);
        assertEquals(first, ProfileRuns.latest(base), "the newest run with profiles");
        Files.write(second.resolve("b.jpprof"), new byte[0]);
        assertEquals(second, ProfileRuns.latest(base));
        Files.write(second.resolve("a.jpprof"), new byte[0]);
        Files.write(second.resolve("notes.txt"), new byte[0]);
        assertEquals(Arrays.asList(second.resolve("a.jpprof"), second.resolve("b.jpprof")), ProfileRuns.profiles(second));
        assertEquals(Collections.emptyList(), ProfileRuns.profiles(base.resolve("missing")));
        ProfileRuns.finish(first);
        ProfileRuns.finish(second);
    }

    @Test
    void a_run_in_progress_is_never_removed() throws IOException {
        Path running = ProfileRuns.start(base);
        Path[] later = {ProfileRuns.start(base), ProfileRuns.start(base), ProfileRuns.start(base)};
        assertTrue(Files.isDirectory(running));
        for (Path run : later) {
            assertTrue(Files.isDirectory(run));
            ProfileRuns.finish(run);
        }
        ProfileRuns.finish(running);
    }

    @Test
    void starting_removes_finished_runs_but_the_newest() throws IOException {
        Path oldest = ProfileRuns.start(base);
        ProfileRuns.finish(oldest);
        Path older = ProfileRuns.start(base);
        ProfileRuns.finish(older);
        Path ide = Files.createDirectories(base.resolve("ide"));
        Path current = ProfileRuns.start(base);
        assertFalse(Files.exists(oldest));
        try (Stream<Path> left = Files.list(base)) {
            assertEquals(3, left.count(), "the runs kept and ide/, nothing else");
        }
        assertTrue(Files.isDirectory(older), "the newest finished run, which a report may be reading");
        assertTrue(Files.isDirectory(ide), "not a run");
        assertTrue(Files.isDirectory(current));
        ProfileRuns.finish(current);
    }
}
