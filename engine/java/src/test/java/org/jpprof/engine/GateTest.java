package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Baseline and check requests through the native library. */
class GateTest {
    private static final String WORK = "demo.Main.work(I)J";
    /** {@link #WORK} as the reports' pages hold its full form. */
    private static final String WORK_SHOWN = "demo.Main.work(int):long";

    @TempDir
    Path temp;

    /** A profile of one test that runs {@code work}, as a test JVM writes it. */
    private List<Path> profile(String name, long workBytecodes) throws IOException {
        Path file = temp.resolve(name);
        String text = "jp-profile 1\nmeta bba default\n"
                + "frame 1 [test] demo.MainTest#work()\n"
                + "frame 2 " + WORK + "\n"
                + "node 1 0 1 0 0\n"
                + "node 2 1 2 1 " + workBytecodes + "\n"
                + "end 2\n";
        Files.write(file, text.getBytes(StandardCharsets.UTF_8));
        return Collections.singletonList(file);
    }

    private CheckRequest.Builder check(List<Path> profiles, Path baseline) {
        return CheckRequest.builder().profiles(profiles).baseline(baseline);
    }

    @Test
    void a_baseline_of_calls_should_name_its_metric_and_record_calls() throws IOException {
        Path baseline = temp.resolve("jp-baseline.txt");
        Engine.load().baseline(BaselineRequest.builder().profiles(profile("a.jpprof", 5000)).out(baseline)
                .metric("calls").methodFloor(0).build());
        String text = new String(Files.readAllBytes(baseline), StandardCharsets.UTF_8);
        assertTrue(text.contains("metric calls\n"), text);
        assertTrue(text.contains("method 1 1 " + WORK + "\n"), text);
        assertThrows(IllegalArgumentException.class, () -> BaselineRequest.builder().metric(""));
    }

    @Test
    void check_should_fail_naming_the_method_that_grew_and_pass_within_its_tolerance()
            throws IOException {
        Path baseline = temp.resolve("jp-baseline.txt");
        String recorded = Engine.load().baseline(
                BaselineRequest.builder().profiles(profile("a.jpprof", 5000)).out(baseline).build());
        assertEquals("1 tests and 1 methods", recorded);
        assertTrue(new String(Files.readAllBytes(baseline), StandardCharsets.UTF_8)
                .contains("method 5000 1 " + WORK + "\n"));

        List<Path> grown = profile("b.jpprof", 5600);
        CheckResult failed = Engine.load().check(check(grown, baseline).build());
        assertFalse(failed.passed());
        assertEquals(2, failed.regressions());
        assertTrue(failed.summary().contains(
                "regression: method " + WORK + ": 5000 -> 5600 bytecodes (+600, +12.00%"),
                failed.summary());

        CheckResult passed = Engine.load().check(
                check(grown, baseline).toleranceFor("demo.*", 20).build());
        assertTrue(passed.passed(), passed.summary());
    }

    @Test
    void check_should_refuse_a_missing_baseline_and_one_of_other_settings() throws IOException {
        List<Path> profiles = profile("a.jpprof", 5000);
        Path missing = temp.resolve("none.txt");
        EngineException error = assertThrows(
                EngineException.class, () -> Engine.load().check(check(profiles, missing).build()));
        assertTrue(error.getMessage().contains("no baseline here; record one"), error.getMessage());

        Path baseline = temp.resolve("jp-baseline.txt");
        Engine.load().baseline(BaselineRequest.builder().profiles(profiles).out(baseline)
                .include(Collections.singletonList("demo.**")).build());
        EngineException other = assertThrows(
                EngineException.class, () -> Engine.load().check(check(profiles, baseline).build()));
        assertTrue(other.getMessage().contains("include is `demo.**` in the baseline, `none` now"),
                other.getMessage());
    }

    @Test
    void check_should_diff_against_the_profiles_its_baseline_kept_and_name_the_page()
            throws IOException {
        Path baseline = temp.resolve("jp-baseline.txt");
        Path kept = temp.resolve("baseline-profiles");
        Engine.load().baseline(BaselineRequest.builder().profiles(profile("a.jpprof", 5000))
                .out(baseline).keepProfiles(kept).build());
        List<Path> base = ProfileRuns.profiles(kept);
        assertEquals(1, base.size());

        Path page = temp.resolve("check-diff.html");
        CheckResult failed = Engine.load().check(
                check(profile("b.jpprof", 5600), baseline).diffBase(base, page).build());
        assertFalse(failed.passed());
        assertEquals(page, failed.diffReport());
        assertTrue(failed.summary().contains(page.toString()), failed.summary());
        String html = new String(Files.readAllBytes(page), StandardCharsets.UTF_8);
        assertTrue(html.contains(WORK_SHOWN) && html.trim().endsWith("</html>"));
    }

    @Test
    void requests_should_cross_as_the_engine_reads_them() {
        Path dir = temp.toAbsolutePath();
        String json = check(Collections.singletonList(dir.resolve("a.jpprof")), dir.resolve("b.txt"))
                .tolerance(0.5).toleranceFor("x*", 3).ignore(Collections.singletonList("y"))
                .build().toJson();
        assertEquals("{\"profiles\":[\"" + dir.resolve("a.jpprof") + "\"],\"baseline\":\""
                + dir.resolve("b.txt") + "\",\"include\":[],\"exclude\":[],\"tolerance\":0.5,"
                + "\"tolerances\":[{\"pattern\":\"x*\",\"percent\":3.0}],\"ignore\":[\"y\"],"
                + "\"reportDir\":null,\"diffBase\":[],\"diffOut\":null}", json);
        assertThrows(IllegalArgumentException.class, () -> CheckRequest.builder().tolerance(-1));
    }
}
