package demo;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Exceptions thrown and caught across frames: frames left by an exception must be popped, and
 * the frame that catches goes on counting. Also exceptions raised by the VM (division by zero,
 * null, array bounds), rethrow, wrapping, multi-catch, try-with-resources with a suppressed
 * exception, and a handler in a loop.
 */
public class Exceptions {
    static final class Checked extends Exception {
        final int depth;

        Checked(int depth) {
            super("depth " + depth);
            this.depth = depth;
        }
    }

    static int deep(int n) throws Checked {
        if (n == 0) {
            throw new Checked(n);
        }
        return deep(n - 1) + 1;
    }

    static int catchAtTop(int n) {
        try {
            return deep(n);
        } catch (Checked e) {
            return -e.depth - 1;
        }
    }

    static int divide(int a, int b) {
        return a / b;
    }

    static int safeDivide(int a, int b) {
        try {
            return divide(a, b);
        } catch (ArithmeticException e) {
            return Integer.MAX_VALUE;
        }
    }

    static int length(String s) {
        return s.length();
    }

    static int element(int[] a, int i) {
        return a[i];
    }

    static String classify(Object o, int i) {
        try {
            if (o instanceof String) {
                return "length " + length((String) o);
            }
            return "element " + element((int[]) o, i);
        } catch (NullPointerException | ArrayIndexOutOfBoundsException e) {
            return e.getClass().getSimpleName();
        } catch (ClassCastException e) {
            return "not an array";
        }
    }

    static void rethrow(int n) throws Checked {
        try {
            deep(n);
        } catch (Checked e) {
            if (e.depth == 0) {
                throw e;
            }
        }
    }

    static void wrap(int n) {
        try {
            rethrow(n);
        } catch (Checked e) {
            throw new IllegalStateException("wrapped", e);
        }
    }

    static final class Resource implements AutoCloseable {
        final String name;
        final boolean failOnClose;

        Resource(String name, boolean failOnClose) {
            this.name = name;
            this.failOnClose = failOnClose;
        }

        void use(boolean fail) throws IOException {
            if (fail) {
                throw new IOException("use " + name);
            }
        }

        @Override
        public void close() throws IOException {
            if (failOnClose) {
                throw new IOException("close " + name);
            }
        }
    }

    static int resources(boolean failUse, boolean failClose) {
        try (Resource a = new Resource("a", false); Resource b = new Resource("b", failClose)) {
            a.use(false);
            b.use(failUse);
            return 0;
        } catch (IOException e) {
            return e.getSuppressed().length + 1;
        }
    }

    static int handlerInLoop() {
        int caught = 0;
        for (int i = 0; i < 20; i++) {
            try {
                if (i % 3 == 0) {
                    throw new UncheckedIOException(new IOException("i=" + i));
                }
                caught += divide(100, i % 4);
            } catch (UncheckedIOException e) {
                caught += 1000;
            } catch (ArithmeticException e) {
                caught += 100000;
            }
        }
        return caught;
    }

    public static void main(String[] args) {
        StringBuilder out = new StringBuilder();
        out.append(catchAtTop(5)).append(' ');
        out.append(safeDivide(7, 0)).append(' ').append(safeDivide(7, 2)).append(' ');
        out.append(classify("abc", 0)).append(' ');
        out.append(classify(null, 0)).append(' ');
        out.append(classify(new int[] {1, 2}, 5)).append(' ');
        out.append(classify(new int[] {1, 2}, 1)).append(' ');
        out.append(classify(Integer.valueOf(3), 0)).append(' ');
        try {
            wrap(4);
        } catch (IllegalStateException e) {
            out.append(e.getMessage()).append('/').append(e.getCause().getMessage()).append(' ');
        }
        out.append(resources(false, false)).append(resources(true, false)).append(resources(true, true))
                .append(resources(false, true)).append(' ');
        out.append(handlerInLoop());
        System.out.println(out);
    }
}
