package org.acme.core;

public final class Fib {
    private Fib() {}

    public static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }
}
