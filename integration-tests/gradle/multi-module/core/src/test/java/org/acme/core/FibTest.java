package org.acme.core;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class FibTest {
    @Test
    public void fibOfTwenty() {
        assertEquals(6765, Fib.fib(20));
    }
}
