package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InstrumentResultTest {
    private static final String FULL = "{\"rewritten\": 3, \"reused\": 4, \"copied\": 5,"
            + " \"unchanged\": 6, \"deleted\": 7,"
            + " \"skipped\": [{\"path\": \"a/module-info.class\", \"reason\": \"module descriptor\"}],"
            + " \"warnings\": [{\"path\": \"b/Big.class\", \"message\": \"method m()V: too large\"}],"
            + " \"errors\": [{\"path\": \"c.jar!C.class\", \"message\": \"truncated\"},"
            + " {\"path\": \"d/D.class\", \"message\": \"bad magic\"}],"
            + " \"engineMillis\": 12, \"someFutureKey\": {\"x\": [1]}}";

    @Test
    void an_outcome_should_be_read_field_by_field() {
        InstrumentResult result = InstrumentResult.fromJson(FULL);
        assertEquals(3, result.rewritten());
        assertEquals(4, result.reused());
        assertEquals(5, result.copied());
        assertEquals(6, result.unchanged());
        assertEquals(7, result.deleted());
        assertEquals(1, result.skipped().size());
        assertEquals("a/module-info.class", result.skipped().get(0).path());
        assertEquals("module descriptor", result.skipped().get(0).message());
        assertEquals("b/Big.class: method m()V: too large", result.warnings().get(0).toString());
        assertEquals(2, result.errors().size());
        assertEquals("c.jar!C.class: truncated", result.errors().get(0).toString());
        assertEquals("d/D.class", result.errors().get(1).path());
        assertEquals(12, result.engineMillis());
        assertTrue(result.hasErrors());
        assertEquals("3 rewritten, 4 reused, 5 copied, 6 unchanged, 7 deleted, 1 skipped, 1 warnings,"
                + " 2 errors in 12 ms", result.toString());
        assertEquals("2 inputs could not be instrumented:\n  c.jar!C.class: truncated\n  d/D.class: bad magic",
                result.errorMessage());
    }

    @Test
    void an_empty_outcome_should_have_no_errors() {
        InstrumentResult result = InstrumentResult.fromJson("{\"rewritten\":0,\"reused\":0,"
                + "\"copied\":0,\"unchanged\":0,\"deleted\":0,\"skipped\":[],\"warnings\":[],"
                + "\"errors\":[],\"engineMillis\":0}");
        assertFalse(result.hasErrors());
        assertTrue(result.warnings().isEmpty());
    }

    @Test
    void a_missing_or_mistyped_field_should_be_named() {
        assertMessage("the outcome has no \"deleted\"", FULL.replace("\"deleted\"", "\"gone\""));
        assertMessage("\"copied\" is not a count: the string \"5\"", FULL.replace("5,", "\"5\","));
        assertMessage("\"copied\" is not a count: the number -5", FULL.replace("5,", "-5,"));
        assertMessage("\"copied\" is not a count: the number 5.5", FULL.replace("5,", "5.5,"));
        assertMessage("\"copied\" is too large: 5000000000", FULL.replace("5,", "5000000000,"));
        assertMessage("\"errors\" is not a list: null",
                FULL.replace(FULL.substring(FULL.indexOf("[{\"path\": \"c.jar"),
                        FULL.indexOf(", \"engineMillis\"")), "null"));
        assertMessage("an item of \"skipped\" has no string \"reason\": null",
                FULL.replace("\"reason\"", "\"why\""));
        assertMessage("an item of \"warnings\" is not an object: the number 1",
                FULL.replace("\"warnings\": [", "\"warnings\": [1, "));
        assertMessage("the outcome is not a JSON object", "[]");
    }

    private static void assertMessage(String expected, String json) {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> InstrumentResult.fromJson(json), json);
        assertEquals(expected, e.getMessage());
    }
}
