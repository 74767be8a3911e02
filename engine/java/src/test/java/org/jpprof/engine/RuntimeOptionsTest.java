package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class RuntimeOptionsTest {
    @Test
    void properties_keep_a_fixed_order_and_leave_out_unset_ones() {
        assertEquals(
                Arrays.asList("-Djp.output=/p/x-%p.jpprof", "-Djp.granularity=1000"),
                RuntimeOptions.jvmArgs(RuntimeOptions.properties("/p/x-%p.jpprof", null, "1000")));
        assertEquals(
                Collections.singletonList("-Djp.agent=none"),
                RuntimeOptions.jvmArgs(RuntimeOptions.properties(null, "none", null)));
    }
}
