package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InstrumentRequestTest {
    @Test
    void a_full_request_should_give_the_documented_json() {
        InstrumentRequest request = InstrumentRequest.builder()
                .input(Paths.get("/w/classes"))
                .inputs(Arrays.asList(Paths.get("/w/lib/a \"b\".jar")))
                .output(Paths.get("/w/out"))
                .cacheDir(Paths.get("/w/cache"))
                .bba(InstrumentRequest.Bba.PRECISE)
                .lines(false)
                .include("com.acme.**", "org.x.*")
                .exclude("com.acme.gen.*")
                .configFile(Paths.get("/w/jp.toml"))
                .build();
        assertEquals("{\"inputs\":[\"/w/classes\",\"/w/lib/a \\\"b\\\".jar\"],\"output\":\"/w/out\","
                + "\"cacheDir\":\"/w/cache\",\"bba\":\"precise\",\"lines\":false,\"include\":[\"com.acme.**\","
                + "\"org.x.*\"],\"exclude\":[\"com.acme.gen.*\"],\"configFile\":\"/w/jp.toml\"}",
                request.toJson());
    }

    @Test
    void a_minimal_request_should_write_nulls_and_empty_lists() {
        InstrumentRequest request = InstrumentRequest.builder().output(Paths.get("/o")).build();
        assertEquals("{\"inputs\":[],\"output\":\"/o\",\"cacheDir\":null,\"bba\":null,"
                + "\"include\":[],\"exclude\":[],\"configFile\":null}", request.toJson());
        Map<?, ?> parsed = (Map<?, ?>) Json.parse(request.toJson());
        assertEquals(Arrays.asList("inputs", "output", "cacheDir", "bba", "include", "exclude",
                "configFile"), Arrays.asList(parsed.keySet().toArray()));
    }

    @Test
    void relative_paths_should_be_made_absolute_against_user_dir() {
        InstrumentRequest request = InstrumentRequest.builder()
                .input(Paths.get("build/classes"))
                .output(Paths.get("build/./jp/../jp"))
                .build();
        Path base = Paths.get(System.getProperty("user.dir"));
        assertEquals(base.resolve("build/classes"), request.inputs().get(0));
        assertEquals(base.resolve("build/jp"), request.output());
        assertTrue(request.output().isAbsolute());
    }

    @Test
    void bba_names_should_be_those_of_jp_toml() {
        assertEquals("default", InstrumentRequest.Bba.DEFAULT.jsonName());
        assertEquals("precise", InstrumentRequest.Bba.PRECISE.jsonName());
    }

    @Test
    void a_request_without_output_should_be_refused() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> InstrumentRequest.builder().input(Paths.get("/c")).build());
        assertEquals("an instrument request needs an output directory", e.getMessage());
    }
}
