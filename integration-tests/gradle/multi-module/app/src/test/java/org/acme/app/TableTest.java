package org.acme.app;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TableTest {
    @Test
    public void firstSeven() {
        assertEquals("0 1 1 2 3 5 8", Table.row(7));
    }
}
