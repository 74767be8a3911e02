package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SpillBufferTest {
    @Test
    void text_within_the_limit_stays_in_memory() throws IOException {
        StringWriter out = new StringWriter();
        try (SpillBuffer buffer = new SpillBuffer(64)) {
            buffer.append("value 1 1 5\n");
            buffer.append("value 2 1 7\n");
            buffer.writeTo(out);
            assertNull(buffer.file());
        }
        assertEquals("value 1 1 5\nvalue 2 1 7\n", out.toString());
    }

    @Test
    void text_past_the_limit_goes_to_a_file_that_closing_deletes() throws IOException {
        StringBuilder expected = new StringBuilder();
        StringWriter out = new StringWriter();
        Path file;
        try (SpillBuffer buffer = new SpillBuffer(64)) {
            for (int node = 1; node <= 1000; node++) {
                String record = "value " + node + " 2 " + node * 3 + " \u00e9\n"; // not ASCII alone
                expected.append(record);
                buffer.append(record);
            }
            file = buffer.file();
            assertTrue(Files.isRegularFile(file));
            buffer.writeTo(out);
        }
        assertEquals(expected.toString(), out.toString());
        assertFalse(Files.exists(file));
    }
}
