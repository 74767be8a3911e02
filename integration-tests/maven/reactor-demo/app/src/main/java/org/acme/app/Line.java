package org.acme.app;

import org.acme.core.Fib;

public final class Line {
    private Line() {}

    public static String of(int n) {
        return "fib(" + n + ") = " + Fib.fib(n);
    }
}
