import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Exceptions thrown and caught across frames, rethrown, wrapped, suppressed; finally blocks that
 * override a return or a throw; try-with-resources; handlers inside loops. Prints the line number
 * of each caught exception's top frame, so that a LineNumberTable mapped wrongly shows.
 * Ends with an uncaught exception (exit status 1, stack trace on stderr).
 */
public class Exceptions {
    static final List<String> log = new ArrayList<>();

    static class AppException extends Exception {
        final int code;

        AppException(String message, int code, Throwable cause) {
            super(message, cause);
            this.code = code;
        }
    }

    static class Resource implements Closeable {
        final String name;
        final boolean failOnClose;

        Resource(String name, boolean failOnClose) {
            this.name = name;
            this.failOnClose = failOnClose;
            log.add("open " + name);
        }

        @Override
        public void close() throws IOException {
            log.add("close " + name);
            if (failOnClose) throw new IOException("close failed: " + name);
        }
    }

    static int depth(int n) {
        if (n == 0) throw new IllegalStateException("bottom");
        return depth(n - 1) + 1;
    }

    static int catchAtDepth(int n, int catchAt) {
        try {
            if (n == 0) throw new IllegalArgumentException("deep " + catchAt);
            return catchAtDepth(n - 1, catchAt) + 1;
        } catch (IllegalArgumentException e) {
            if (n == catchAt) return -n * 100;
            throw e;
        }
    }

    @SuppressWarnings("finally")
    static int finallyOverridesReturn(int x) {
        try {
            if (x > 0) return x;
            throw new RuntimeException("negative");
        } finally {
            if (x != 5) return x * 10;
        }
    }

    @SuppressWarnings("finally")
    static String finallyOverridesThrow(boolean b) {
        for (int i = 0; ; i++) {
            try {
                if (b) throw new IllegalStateException("lost");
                if (i > 2) return "loop " + i;
            } finally {
                if (b) return "swallowed";
                log.add("finally " + i);
            }
        }
    }

    static int nestedFinally(int n) {
        int r = 0;
        try {
            try {
                r += 1;
                if (n % 2 == 0) throw new ArithmeticException("even");
                r += 10;
            } finally {
                r += 100;
            }
        } catch (ArithmeticException e) {
            r += 1000;
        } finally {
            r += 10000;
        }
        return r;
    }

    static void wrap(int code) throws AppException {
        try {
            Object o = code > 1 ? "text" : Integer.valueOf(code);
            Integer i = (Integer) o;
            log.add("cast ok " + i);
            int[] a = new int[code];
            a[code] = 1;
        } catch (ClassCastException | ArrayIndexOutOfBoundsException e) {
            throw new AppException("wrapped " + e.getClass().getSimpleName(), code, e);
        }
    }

    static String tryWithResources(boolean failBody, boolean failClose) {
        try (Resource a = new Resource("a", false); Resource b = new Resource("b", failClose)) {
            if (failBody) throw new IllegalStateException("body");
            return "ok " + a.name + b.name;
        } catch (IllegalStateException e) {
            StringBuilder sb = new StringBuilder("caught " + e.getMessage());
            for (Throwable s : e.getSuppressed()) sb.append(" suppressed ").append(s.getMessage());
            return sb.toString();
        } catch (IOException e) {
            return "io " + e.getMessage();
        }
    }

    static int loopWithHandlers(int n) {
        int caught = 0;
        int sum = 0;
        for (int i = 0; i < n; i++) {
            try {
                if (i % 3 == 0) throw new RuntimeException("r" + i);
                if (i % 5 == 0) continue;
                sum += 100 / (i % 4);
            } catch (ArithmeticException e) {
                caught += 10;
            } catch (RuntimeException e) {
                caught++;
                if (i > 20) break;
            } finally {
                sum++;
            }
        }
        return sum * 1000 + caught;
    }

    static long rethrowChain(int n) throws Exception {
        try {
            try {
                throw new IOException("level " + n);
            } catch (IOException e) {
                throw new Exception("second", e);
            }
        } catch (Exception e) {
            if (n > 0) return rethrowChain(n - 1) + 1;
            throw e;
        }
    }

    static String where(Throwable t) {
        StackTraceElement top = t.getStackTrace()[0];
        return t.getClass().getSimpleName() + "(" + t.getMessage() + ") at " + top.getMethodName() + ":"
                + top.getLineNumber();
    }

    public static void main(String[] args) {
        try {
            depth(7);
        } catch (IllegalStateException e) {
            System.out.println("depth: " + where(e) + " frames " + e.getStackTrace().length);
        }
        for (int c = 0; c < 6; c++) {
            try {
                System.out.println("catchAtDepth " + c + ": " + catchAtDepth(5, c));
            } catch (IllegalArgumentException e) {
                System.out.println("catchAtDepth " + c + ": escaped " + where(e));
            }
        }
        for (int x = -1; x <= 6; x += 3) {
            System.out.println("finallyOverridesReturn " + x + ": " + finallyOverridesReturn(x));
        }
        try {
            System.out.println("finallyOverridesReturn 5: " + finallyOverridesReturn(5));
            System.out.println("finallyOverridesReturn -5 with 5? " + finallyOverridesReturn(-5));
        } catch (RuntimeException e) {
            System.out.println("unexpected " + where(e));
        }
        System.out.println("finallyOverridesThrow: " + finallyOverridesThrow(true) + ", " + finallyOverridesThrow(false));
        for (int n = 0; n < 3; n++) System.out.println("nestedFinally " + n + ": " + nestedFinally(n));
        for (int code = 0; code < 4; code++) {
            try {
                wrap(code);
                System.out.println("wrap " + code + ": no exception");
            } catch (AppException e) {
                System.out.println("wrap " + code + ": " + e.getMessage() + " code " + e.code + " cause "
                        + e.getCause().getClass().getName() + " at line " + e.getStackTrace()[0].getLineNumber());
            }
        }
        System.out.println("twr: " + tryWithResources(false, false));
        System.out.println("twr: " + tryWithResources(true, false));
        System.out.println("twr: " + tryWithResources(true, true));
        System.out.println("twr: " + tryWithResources(false, true));
        System.out.println("loopWithHandlers: " + loopWithHandlers(30) + " " + loopWithHandlers(10));
        try {
            rethrowChain(3);
        } catch (Exception e) {
            System.out.println("rethrowChain: " + where(e) + " cause " + where(e.getCause()));
        }
        try {
            Object[] objects = new String[1];
            objects[0] = Integer.valueOf(1);
        } catch (ArrayStoreException e) {
            System.out.println("array store: " + e.getClass().getName());
        }
        try {
            Object o = null;
            o.hashCode();
        } catch (NullPointerException e) {
            System.out.println("npe at line " + e.getStackTrace()[0].getLineNumber());
        }
        System.out.println("log: " + log);
        int[] data = {3, 1, 2};
        int i = 0;
        while (true) {
            try {
                System.out.println("data " + data[i++]);
            } catch (ArrayIndexOutOfBoundsException e) {
                System.out.println("end of data after " + i);
                break;
            }
        }
        throw new IllegalStateException("uncaught at the end");
    }
}
