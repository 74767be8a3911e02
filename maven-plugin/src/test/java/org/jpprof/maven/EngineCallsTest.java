package org.jpprof.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class EngineCallsTest {
    @Test
    void empty_patterns_are_left_out() {
        EngineCalls.Settings settings = new EngineCalls.Settings(
                null, Arrays.asList("org.a.**", null, "", " org.b.* "), Arrays.asList((String) null), null);
        assertEquals(Arrays.asList("org.a.**", "org.b.*"), settings.includes);
        assertEquals(Collections.emptyList(), settings.excludes);
        assertEquals(Collections.emptyList(), new EngineCalls.Settings(null, null, null, null).includes);
    }
}
