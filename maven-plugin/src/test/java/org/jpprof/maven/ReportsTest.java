package org.jpprof.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import org.apache.maven.plugin.MojoExecutionException;
import org.jpprof.engine.ReportRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportsTest {
    @Test
    void metric_is_named_as_on_jp_reports_command_line() throws Exception {
        assertEquals(ReportRequest.Metric.CALLS, Reports.metric("calls"));
        assertEquals(ReportRequest.Metric.BYTECODES, Reports.metric(" Bytecodes "));
        assertNull(Reports.metric(null));
        assertNull(Reports.metric(""));
    }

    @Test
    void only_source_roots_that_exist_are_passed(@TempDir Path dir) throws Exception {
        File main = Files.createDirectories(dir.resolve("src/main/java")).toFile();
        File generated = dir.resolve("target/generated-sources/annotations").toFile();
        assertEquals(Collections.singletonList(main.toPath()), Reports.existingDirs(Arrays.asList(generated, main)));
    }

    @Test
    void jfr_records_into_the_runs_jfr_directory(@TempDir Path dir) throws Exception {
        File run = dir.resolve("run-1").toFile();
        String option = Reports.jfrJvmArg(run);
        File recordings = new File(run, "jfr");
        assertEquals("-XX:StartFlightRecording=filename=" + recordings.getAbsolutePath() + ",settings=profile", option);
        assertTrue(recordings.isDirectory());
    }

    @Test
    void the_recordings_of_a_report_are_those_of_its_profiles_runs(@TempDir Path dir) throws Exception {
        Path run = Files.createDirectories(dir.resolve("run-1/jfr"));
        Path second = Files.createFile(run.resolve("hotspot-pid-2.jfr"));
        Path first = Files.createFile(run.resolve("hotspot-pid-1.jfr"));
        Files.createFile(run.resolve("notes.txt"));
        File profile = Files.createFile(dir.resolve("run-1/test-1.jpprof")).toFile();
        File other = Files.createDirectories(dir.resolve("run-2")).resolve("test-2.jpprof").toFile();
        assertEquals(
                Arrays.asList(first.toFile(), second.toFile()), Reports.recordingsOf(Arrays.asList(profile, other)));
    }

    @Test
    void unknown_metric_fails_naming_the_known_ones() {
        MojoExecutionException e = assertThrows(MojoExecutionException.class, () -> Reports.metric("seconds"));
        assertEquals("jp: metric is 'seconds'; it must be one of 'calls', 'bytecodes'", e.getMessage());
    }
}
