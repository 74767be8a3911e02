package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    private static String written(String value) {
        StringBuilder out = new StringBuilder();
        Json.writeString(out, value);
        return out.toString();
    }

    @Test
    void write_should_escape_quotes_backslashes_and_control_characters() {
        assertEquals("\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\"", written("a\"b\\c\n\t\r\b\f\u0001"));
        assertEquals("null", written(null));
        assertEquals("\"caf\u00e9 \ud83d\ude00 /\"", written("caf\u00e9 \ud83d\ude00 /"));
    }

    @Test
    void written_strings_should_read_back_unchanged() {
        String[] samples = {"", "plain", "a\"b\\c\n\u0000\u001f\u007f", "\u00e9\u4e2d\ud83d\ude00", "C:\\x"};
        for (String sample : samples) {
            assertEquals(sample, Json.parse(written(sample)));
        }
    }

    @Test
    void parse_should_read_every_kind_of_value() {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("n", 42L);
        expected.put("neg", -7L);
        expected.put("big", new BigDecimal("123456789012345678901234567890"));
        expected.put("frac", new BigDecimal("1.5e3"));
        expected.put("s", "x\u00e9\ud83d\ude00/");
        expected.put("t", true);
        expected.put("f", false);
        expected.put("z", null);
        expected.put("list", Arrays.asList(1L, "two", Collections.emptyList(), Collections.emptyMap()));
        Object parsed = Json.parse(" {\"n\": 42, \"neg\":-7, \"big\":123456789012345678901234567890,"
                + "\"frac\":1.5e3, \"s\":\"x\\u00e9\\ud83d\\ude00\\/\", \"t\":true, \"f\" : false,"
                + " \"z\":null, \"list\":[1,\"two\",[],{}]}\n");
        assertEquals(expected, parsed);
        assertEquals(Arrays.asList("n", "neg", "big", "frac", "s", "t", "f", "z", "list"),
                Arrays.asList(((Map<?, ?>) parsed).keySet().toArray()));
    }

    @Test
    void parse_should_read_a_bare_null() {
        assertNull(Json.parse("null"));
    }

    @Test
    void parse_should_refuse_what_is_not_one_json_value() {
        String[] bad = {
            "", "   ", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[1 2]", "01", "-", "1.", "1e",
            "+1", ".5", "\"abc", "\"a\\x\"", "\"\\u12\"", "\"\\u12g4\"", "\"tab\there\"", "tru",
            "nul", "[1] 2", "{\"a\":1,\"a\":2}", "'a'", "NaN",
        };
        for (String text : bad) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> Json.parse(text), text);
            assertTrue(e.getMessage().startsWith("bad JSON at character "), e.getMessage());
        }
    }

    @Test
    void parse_errors_should_give_the_offset_and_name_duplicate_keys() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Json.parse("{\"a\":1, \"a\":2}"));
        assertEquals("bad JSON at character 8: duplicate key \"a\"", e.getMessage());
    }
}
