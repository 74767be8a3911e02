package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The JSON contract with the engine (docs/engine-json.md), checked against the sample files that
 * the engine's own serde types write ({@code engine/driver/tests/contract.rs}): every request this
 * facade builds is the sample, and every outcome sample reads into the result, with no field the
 * facade does not know.
 */
class ContractTest {
    @Test
    void an_instrument_request_should_be_the_engines_sample() {
        assertSameJson("instrument-request.json", InstrumentRequest.builder()
                .input(p("/p/build/classes/java/main"))
                .input(p("/p/lib/app.jar"))
                .output(p("/p/build/jp/classes/main"))
                .cacheDir(p("/p/build/jp/cache"))
                .bba(InstrumentRequest.Bba.PRECISE)
                .lines(true)
                .callSites(true)
                .metrics(InstrumentRequest.Metric.ALLOCATIONS)
                .include("com.acme.**")
                .exclude("**Test", "com.acme.gen.*")
                .configFile(p("/p/jp.toml"))
                .build()
                .toJson());
        assertSameJson("instrument-request-bare.json", InstrumentRequest.builder()
                .input(p("/p/classes"))
                .output(p("/p/out"))
                .build()
                .toJson());
    }

    @Test
    void an_instrument_outcome_sample_should_read_field_by_field() {
        String sample = sample("instrument-outcome.json");
        assertEquals(keys("rewritten", "reused", "copied", "unchanged", "deleted", "skipped",
                "warnings", "errors", "engineMillis"), GateJson.object(sample).keySet());
        InstrumentResult result = InstrumentResult.fromJson(sample);
        assertEquals(3, result.rewritten());
        assertEquals(2, result.reused());
        assertEquals(1, result.copied());
        assertEquals(4, result.unchanged());
        assertEquals(1, result.deleted());
        assertEquals(42, result.engineMillis());
        assertEquals("/p/lib/app.jar!com/acme/Big.class: class kept as it was: the constant pool is"
                + " full", result.skipped().get(0).toString());
        assertEquals("/p/classes/com/acme/Main.class: com/acme/Main.run()V: too large",
                result.warnings().get(0).toString());
        assertEquals("/p/classes/com/acme/Broken.class", result.errors().get(0).path());
        assertEquals("malformed class file: truncated", result.errors().get(0).message());
    }

    @Test
    void a_report_request_should_be_the_engines_sample() {
        assertSameJson("report-request.json", ReportRequest.builder()
                .profile(p("/p/a.jpprof"))
                .profile(p("/p/b.jpprof"))
                .format(ReportRequest.Format.HTML)
                .metric(ReportRequest.Metric.CALLS)
                .threshold(1.5)
                .maxDepth(8)
                .title("demo: jpProfileTest")
                .sources(Arrays.asList(p("/p/src/main/java"), p("/p/src/main/kotlin")))
                .samples(Collections.singletonList(p("/p/jfr")))
                .out(p("/p/report/index.html"))
                .build()
                .toJson());
    }

    @Test
    void class_rewriter_settings_should_be_the_engines_sample() {
        assertSameJson("class-rewriter-settings.json", ClassRewriterSettings.builder()
                .bba(InstrumentRequest.Bba.PRECISE)
                .lines(true)
                .natives(true)
                .include(Collections.singletonList("com.acme.**"))
                .exclude(Collections.singletonList("**Test"))
                .configFile(p("/p/jp.toml"))
                .cacheDir(p("/home/u/.cache/jp/agent"))
                .build()
                .toJson());
    }

    @Test
    void the_report_formats_should_be_the_engines() {
        Set<Object> facade = new HashSet<>();
        for (ReportRequest.Format format : ReportRequest.Format.values()) {
            facade.add(format.jsonName());
        }
        assertEquals(new HashSet<>((List<?>) Json.parse(sample("report-formats.json"))), facade);
    }

    @Test
    void a_baseline_request_should_be_the_engines_sample_and_its_outcome_should_read() {
        assertSameJson("baseline-request.json", BaselineRequest.builder()
                .profiles(Collections.singletonList(p("/p/a.jpprof")))
                .out(p("/p/jp-baseline.txt"))
                .methodFloor(100)
                .metric("allocations")
                .include(Collections.singletonList("com.acme.**"))
                .exclude(Collections.singletonList("**Test"))
                .keepProfiles(p("/p/baseline-profiles"))
                .build()
                .toJson());
        Map<String, Object> outcome = GateJson.object(sample("baseline-outcome.json"));
        assertEquals(keys("tests", "methods"), outcome.keySet());
        assertEquals(12, GateJson.count(outcome, "tests"));
        assertEquals(340, GateJson.count(outcome, "methods"));
    }

    @Test
    void a_check_request_should_be_the_engines_sample_and_its_outcome_should_read() {
        assertSameJson("check-request.json", CheckRequest.builder()
                .profiles(Collections.singletonList(p("/p/a.jpprof")))
                .baseline(p("/p/jp-baseline.txt"))
                .include(Collections.singletonList("com.acme.**"))
                .exclude(Collections.singletonList("**Test"))
                .tolerance(2.5)
                .toleranceFor("com.acme.Slow*", 10.0)
                .ignore(Collections.singletonList("com.acme.Flaky*"))
                .reportDir(p("/p/check"))
                .diffBase(Collections.singletonList(p("/p/baseline-profiles/a.jpprof")),
                        p("/p/check/check-diff.html"))
                .build()
                .toJson());
        String sample = sample("check-outcome.json");
        assertEquals(keys("passed", "regressions", "improvements", "summary", "diffReport"),
                GateJson.object(sample).keySet());
        CheckResult result = CheckResult.fromJson(sample);
        assertFalse(result.passed());
        assertEquals(1, result.regressions());
        assertEquals(2, result.improvements());
        assertEquals("jp check: 1 regression, 2 improvements\n", result.summary());
        assertEquals(p("/p/check/check-diff.html"), result.diffReport());
    }

    @Test
    void a_hook_request_should_be_the_engines_sample_and_its_outcome_should_read() {
        assertSameJson("hook-request.json", new HookJarRequest(p("/p/lib/junit-4.13.2.jar"),
                "org.junit.runner.notification.RunNotifier", "org.jpprof.junit.JUnit4Hook",
                "attach", p("/p/build/jp/hooked")).toJson());
        Map<String, Object> outcome = GateJson.object(sample("hook-outcome.json"));
        assertEquals(keys("jar", "reused"), outcome.keySet());
        assertEquals("/p/build/jp/hooked/junit-4.13.2-jp-0123456789abcdef.jar", outcome.get("jar"));
        assertTrue((Boolean) outcome.get("reused"));
    }

    /** Same keys, same values, same types: the order and the spacing of the text do not matter. */
    private static void assertSameJson(String sample, String built) {
        assertEquals(Json.parse(sample(sample)), Json.parse(built), sample);
    }

    private static String sample(String name) {
        try (InputStream in = ContractTest.class.getResourceAsStream("contract/" + name)) {
            assertNotNull(in, "the sample " + name + " (engine/driver/tests/contract.rs writes it)");
            return new String(EngineTest.readAll(in), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(name + ": " + e, e);
        }
    }

    private static Set<String> keys(String... keys) {
        return new HashSet<>(Arrays.asList(keys));
    }

    private static Path p(String path) {
        return Paths.get(path);
    }
}
