package org.acme.app;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class LineTest {
    @Test
    public void lineOfTwelve() {
        assertEquals("fib(12) = 144", Line.of(12));
    }
}
