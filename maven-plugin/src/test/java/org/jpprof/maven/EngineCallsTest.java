package org.jpprof.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.Collections;
import org.jpprof.engine.InstrumentRequest;
import org.junit.jupiter.api.Test;

class EngineCallsTest {
    @Test
    void empty_patterns_are_left_out() {
        EngineCalls.Settings settings = new EngineCalls.Settings(
                null, null, null, Arrays.asList("org.a.**", null, "", " org.b.* "), Arrays.asList((String) null), null);
        assertEquals(Arrays.asList("org.a.**", "org.b.*"), settings.includes);
        assertEquals(Collections.emptyList(), settings.excludes);
        assertEquals(Collections.emptyList(), new EngineCalls.Settings(null, null, null, null, null, null).includes);
    }

    @Test
    void lines_reach_the_instrument_request_and_unset_leaves_them_to_the_config_file() throws Exception {
        File dir = new File("target").getAbsoluteFile();
        InstrumentRequest on = EngineCalls.request(
                dir, dir, dir, new EngineCalls.Settings(null, true, null, null, null, null));
        assertEquals(Boolean.TRUE, on.lines());
        assertTrue(on.toJson().contains("\"lines\":true"), on.toJson());
        InstrumentRequest unset = EngineCalls.request(
                dir, dir, dir, new EngineCalls.Settings(null, null, null, null, null, null));
        assertNull(unset.lines());
        assertFalse(unset.toJson().contains("\"lines\""), unset.toJson());
    }

    @Test
    void metrics_reach_the_instrument_request_and_unset_leaves_them_to_the_config_file() throws Exception {
        File dir = new File("target").getAbsoluteFile();
        InstrumentRequest on = EngineCalls.request(dir, dir, dir,
                new EngineCalls.Settings(null, null, Arrays.asList(" allocations ", ""), null, null, null));
        assertEquals(Collections.singletonList(InstrumentRequest.Metric.ALLOCATIONS), on.metrics());
        assertTrue(on.toJson().contains("\"metrics\":[\"allocations\"]"), on.toJson());
        InstrumentRequest unset = EngineCalls.request(
                dir, dir, dir, new EngineCalls.Settings(null, null, null, null, null, null));
        assertNull(unset.metrics());
        assertFalse(unset.toJson().contains("\"metrics\""), unset.toJson());
    }
}
