package demo;

/**
 * finally blocks on every way out of a try: falling through, return, break, continue, a thrown
 * exception that propagates, and a finally that overrides a return or swallows an exception.
 */
public class Finally {
    static int log;

    static void note(int v) {
        log = log * 31 + v;
    }

    static int normal(int x) {
        try {
            note(1);
            x += 1;
        } finally {
            note(2);
        }
        return x;
    }

    static int earlyReturn(int x) {
        try {
            if (x > 0) {
                return x * 2;
            }
            note(3);
        } finally {
            note(4);
        }
        return -1;
    }

    @SuppressWarnings("finally")
    static int overrideReturn(int x) {
        try {
            return x;
        } finally {
            return x + 100;
        }
    }

    static void thrower(int x) {
        try {
            if (x % 2 == 0) {
                throw new IllegalArgumentException("even " + x);
            }
            note(5);
        } finally {
            note(6);
        }
    }

    @SuppressWarnings("finally")
    static int swallow(int x) {
        try {
            thrower(x);
        } finally {
            return 7;
        }
    }

    static int loopWithFinally() {
        int total = 0;
        for (int i = 0; i < 10; i++) {
            try {
                if (i == 2) {
                    continue;
                }
                if (i == 7) {
                    break;
                }
                total += i;
            } finally {
                note(i);
            }
        }
        return total;
    }

    static int nested(int x) {
        try {
            try {
                thrower(x);
                return 1;
            } finally {
                note(8);
            }
        } catch (IllegalArgumentException e) {
            return 2;
        } finally {
            note(9);
        }
    }

    public static void main(String[] args) {
        int r = normal(1) + earlyReturn(5) + earlyReturn(-5) + overrideReturn(3) + swallow(4) + swallow(5);
        r += loopWithFinally() + nested(1) + nested(2);
        try {
            thrower(10);
        } catch (IllegalArgumentException e) {
            r += e.getMessage().length();
        }
        System.out.println(r + " " + log);
    }
}
