package org.jpprof.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import org.jpprof.engine.InstrumentRequest;
import org.junit.jupiter.api.Test;

class AgentOptionsTest {
    @Test
    void no_options_should_mean_the_defaults() {
        for (String text : new String[] {null, "", " , "}) {
            AgentOptions options = AgentOptions.parse(text);
            assertEquals(Collections.emptyList(), options.include());
            assertEquals(Collections.emptyList(), options.exclude());
            assertNull(options.bba());
            assertNull(options.lines());
            assertNull(options.configFile());
            assertNull(options.cacheDir());
            assertFalse(options.cacheOff());
        }
    }

    @Test
    void every_option_should_be_read() {
        AgentOptions options = AgentOptions.parse("include=com.acme.**,exclude=**Test,bba=precise,"
                + "lines=true,config=/p/jp.toml,cache=/tmp/jp");
        assertEquals(Collections.singletonList("com.acme.**"), options.include());
        assertEquals(Collections.singletonList("**Test"), options.exclude());
        assertEquals(InstrumentRequest.Bba.PRECISE, options.bba());
        assertEquals(Boolean.TRUE, options.lines());
        assertEquals(Paths.get("/p/jp.toml"), options.configFile());
        assertEquals(Paths.get("/tmp/jp"), options.cacheDir());
    }

    @Test
    void patterns_should_add_up_over_repeats_and_semicolons() {
        AgentOptions options = AgentOptions.parse("include=a.**;b.**, include = c.* ,exclude=x.*;");
        assertEquals(Arrays.asList("a.**", "b.**", "c.*"), options.include());
        assertEquals(Collections.singletonList("x.*"), options.exclude());
    }

    @Test
    void cache_none_should_turn_the_cache_off() {
        AgentOptions options = AgentOptions.parse("cache=none");
        assertTrue(options.cacheOff());
        assertNull(options.cacheDir());
    }

    @Test
    void the_settings_should_carry_every_option() {
        String json = AgentOptions.parse("include=com.acme.**,bba=default,lines=false,config=/p/jp.toml")
                .settings(Paths.get("/c"), true)
                .toJson();
        assertEquals("{\"bba\":\"default\",\"lines\":false,\"natives\":true,\"include\":[\"com.acme.**\"],"
                + "\"exclude\":[],\"configFile\":\"/p/jp.toml\",\"cacheDir\":\"/c\"}", json);
    }

    @Test
    void a_bad_option_should_be_refused_naming_it() {
        assertMessage("unknown option \"output\" (keys: " + AgentOptions.KEYS + ")", "output=a.jpprof");
        assertMessage("option \"precise\" is not key=value (keys: " + AgentOptions.KEYS + ")", "precise");
        assertMessage("option bba is given twice", "bba=default,bba=precise");
        assertMessage("lines is \"yes\", not true or false", "lines=yes");
        assertMessage("option cache has no value", "cache=");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("bba=exact"));
        assertTrue(e.getMessage().contains("exact"), e.getMessage());
    }

    private static void assertMessage(String expected, String text) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse(text));
        assertEquals(expected, e.getMessage());
    }
}
