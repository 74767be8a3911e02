package demo;

/**
 * Exceptions that unwind many frames at once, through program frames and JDK frames (a
 * Runnable run by a JDK method, and a static initialiser in between), then counting goes on in
 * the frame that caught, and the next calls hang in the right place again.
 */
public class Unwind {
    static int depthReached;

    static void dive(int n) {
        depthReached++;
        if (n == 0) {
            throw new IllegalStateException("bottom");
        }
        try {
            dive(n - 1);
        } finally {
            depthReached--;
        }
    }

    static void throughJdk(int n) {
        Runnable r = () -> dive(n);
        java.util.Objects.requireNonNull(r).run();
    }

    static class Failing {
        static final int VALUE;

        static {
            int v;
            try {
                dive(3);
                v = 0;
            } catch (IllegalStateException e) {
                v = 7;
            }
            VALUE = v;
        }
    }

    static int after(int x) {
        return x + 1;
    }

    public static void main(String[] args) {
        int caught = 0;
        for (int round = 0; round < 3; round++) {
            try {
                dive(10 + round);
            } catch (IllegalStateException e) {
                caught++;
            }
            caught += after(round);
            try {
                throughJdk(4);
            } catch (IllegalStateException e) {
                caught++;
            }
            caught += after(round);
        }
        System.out.println(caught + " " + depthReached + " " + Failing.VALUE);
    }
}
