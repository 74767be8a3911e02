package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void check_takes_what_the_runtime_takes() {
        RuntimeOptions.check(null, null);
        for (String agent : Arrays.asList("default", "none", " none ", "", "com.acme.Periodic", "a.b$Inner", "Top")) {
            RuntimeOptions.check(agent, "10_000_000");
        }
    }

    @Test
    void check_names_the_setting_it_refuses() {
        for (String agent : Arrays.asList("periodic agent", "com..Acme", "com.acme.", "1st.Agent", "-")) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> RuntimeOptions.check(agent, null));
            assertTrue(e.getMessage().startsWith("jp.agent = '" + agent + "' is neither"), e.getMessage());
        }
        for (String granularity : Arrays.asList("ten", "0", "-5", "1e6", "_1", "1_", "99999999999999999999", "")) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> RuntimeOptions.check(null, granularity));
            assertTrue(e.getMessage().startsWith("jp.granularity = '" + granularity + "' is not"), e.getMessage());
        }
    }
}
