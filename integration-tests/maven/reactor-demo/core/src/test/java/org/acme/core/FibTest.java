package org.acme.core;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class FibTest {
    @Test
    public void fibOfTwelve() {
        assertEquals(144, Fib.fib(12));
    }
}
