import java.io.Closeable;
import java.io.IOException;
import java.io.StringReader;

/** Exception tables: nested try blocks, multi-catch, finally on every exit, try-with-resources. */
public class TryCatchFinally {
    static int log;

    static int simple(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static int multiCatch(Object o) {
        try {
            return ((String) o).length();
        } catch (ClassCastException | NullPointerException e) {
            return e instanceof NullPointerException ? -1 : -2;
        }
    }

    static int finallyOnEveryExit(int k) {
        try {
            if (k == 0) {
                return 0;
            }
            if (k == 1) {
                throw new IllegalStateException();
            }
            log++;
        } catch (IllegalStateException e) {
            log += 2;
        } finally {
            log += 3; // copied onto each exit path
        }
        return log;
    }

    @SuppressWarnings("finally")
    static int finallyOverridesReturn() {
        try {
            throw new RuntimeException();
        } finally {
            return 7;
        }
    }

    static int nested(String a, String b) {
        try {
            try {
                return Integer.parseInt(a) / Integer.parseInt(b);
            } catch (ArithmeticException e) {
                return 0;
            } finally {
                log++;
            }
        } catch (NumberFormatException outer) {
            try {
                return b.length();
            } catch (NullPointerException inner) {
                return -1;
            }
        }
    }

    static int withResources(String text) throws IOException {
        try (StringReader first = new StringReader(text);
                Closeable second = () -> log++) {
            return first.read();
        }
    }

    static void rethrow(Runnable r) throws Exception {
        try {
            r.run();
        } catch (final Exception e) {
            throw e; // precise rethrow
        }
    }

    static int loopWithBreakInFinally(int[] values) {
        int sum = 0;
        for (int v : values) {
            try {
                if (v < 0) {
                    break;
                }
                sum += v;
            } finally {
                log++;
            }
        }
        return sum;
    }
}
