package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportRequestTest {
    @Test
    void a_full_request_should_give_the_documented_json() {
        ReportRequest request = ReportRequest.builder()
                .profile(Paths.get("/w/a.jpprof"))
                .profiles(Arrays.asList(Paths.get("/w/b \"c\".jpprof")))
                .format(ReportRequest.Format.SPEEDSCOPE)
                .metric(ReportRequest.Metric.CALLS)
                .threshold(2.5)
                .maxDepth(7)
                .title("shop \"checkout\"")
                .out(Paths.get("/w/report.json"))
                .build();
        assertEquals("{\"profiles\":[\"/w/a.jpprof\",\"/w/b \\\"c\\\".jpprof\"],\"format\":\"speedscope\","
                + "\"metric\":\"calls\",\"threshold\":2.5,\"maxDepth\":7,\"title\":\"shop \\\"checkout\\\"\","
                + "\"out\":\"/w/report.json\"}",
                request.toJson());
        Map<?, ?> parsed = (Map<?, ?>) Json.parse(request.toJson());
        assertEquals(Arrays.asList("profiles", "format", "metric", "threshold", "maxDepth", "title", "out"),
                Arrays.asList(parsed.keySet().toArray()));
    }

    @Test
    void a_minimal_request_should_default_to_bytecodes_everything_and_no_depth_limit() {
        ReportRequest request = ReportRequest.builder()
                .profile(Paths.get("/w/a.jpprof"))
                .format(ReportRequest.Format.HTML)
                .out(Paths.get("/w/index.html"))
                .build();
        assertEquals(ReportRequest.Metric.BYTECODES, request.metric());
        assertEquals(0.0, request.threshold());
        assertNull(request.maxDepth());
        assertNull(request.title());
        assertEquals("{\"profiles\":[\"/w/a.jpprof\"],\"format\":\"html\",\"metric\":\"bytecodes\","
                + "\"threshold\":0.0,\"maxDepth\":null,\"title\":null,\"out\":\"/w/index.html\"}", request.toJson());
    }

    @Test
    void format_and_metric_names_should_be_the_engine_names() {
        assertEquals(Arrays.asList("html", "text", "folded", "speedscope", "pprof"), Arrays.asList(
                ReportRequest.Format.HTML.jsonName(), ReportRequest.Format.TEXT.jsonName(),
                ReportRequest.Format.FOLDED.jsonName(), ReportRequest.Format.SPEEDSCOPE.jsonName(),
                ReportRequest.Format.PPROF.jsonName()));
        assertEquals("calls", ReportRequest.Metric.CALLS.jsonName());
        assertEquals("bytecodes", ReportRequest.Metric.BYTECODES.jsonName());
    }

    @Test
    void relative_paths_should_be_made_absolute() {
        ReportRequest request = ReportRequest.builder()
                .profile(Paths.get("p/a.jpprof"))
                .format(ReportRequest.Format.TEXT)
                .out(Paths.get("report.txt"))
                .build();
        assertTrue(request.profiles().get(0).isAbsolute());
        assertTrue(request.out().isAbsolute());
        assertEquals(Paths.get("").toAbsolutePath().resolve("report.txt"), request.out());
    }

    @Test
    void build_should_refuse_a_request_without_profiles_format_or_out() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ReportRequest.builder()
                .format(ReportRequest.Format.TEXT).out(Paths.get("/o")).build());
        assertTrue(e.getMessage().contains("at least one profile"), e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> ReportRequest.builder()
                .profile(Paths.get("/a.jpprof")).out(Paths.get("/o")).build());
        assertTrue(e.getMessage().contains("format"), e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> ReportRequest.builder()
                .profile(Paths.get("/a.jpprof")).format(ReportRequest.Format.TEXT).build());
        assertTrue(e.getMessage().contains("out"), e.getMessage());
    }

    @Test
    void threshold_and_depth_should_be_checked() {
        ReportRequest.Builder builder = ReportRequest.builder();
        assertThrows(IllegalArgumentException.class, () -> builder.threshold(-1));
        assertThrows(IllegalArgumentException.class, () -> builder.threshold(100.5));
        assertThrows(IllegalArgumentException.class, () -> builder.threshold(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> builder.maxDepth(0));
        builder.threshold(100).maxDepth(1);
    }
}
