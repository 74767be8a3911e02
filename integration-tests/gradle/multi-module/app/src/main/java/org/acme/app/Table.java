package org.acme.app;

import org.acme.core.Fib;

public final class Table {
    private Table() {}

    public static String row(int n) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) {
            out.append(Fib.fib(i)).append(' ');
        }
        return out.toString().trim();
    }
}
