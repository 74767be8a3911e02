package probes;

import java.util.Arrays;
import org.jpprof.runtime.ProbeContext;

/**
 * The handler probe of jp.toml: counts `handler-ok` in the calling context when the receiver and
 * arguments are those Probes passes, `handler-bad` otherwise. It runs only instrumented, and its
 * own work must count nowhere in the profile.
 */
public final class Handler {
    private Handler() {}

    public static void onRecord(ProbeContext context, Object receiver, Object[] arguments) {
        context.add(expected(receiver, arguments) ? "handler-ok" : "handler-bad", 1);
    }

    /** Sink.recordStatic(2.5, {4, 5}), or Sink.record("r" + n or "main" for 7, n, 10 n, 'a' + n, n even). */
    private static boolean expected(Object receiver, Object[] arguments) {
        if (receiver == null) {
            return arguments.length == 2 && Double.valueOf(2.5).equals(arguments[0])
                    && arguments[1] instanceof int[] && Arrays.equals((int[]) arguments[1], new int[] {4, 5});
        }
        if (!(receiver instanceof Sink) || arguments.length != 5 || !(arguments[1] instanceof Integer)) {
            return false;
        }
        int n = (Integer) arguments[1];
        return arguments[0].equals(n == 7 ? "main" : "r" + n) && arguments[2].equals(10L * n)
                && arguments[3].equals((char) ('a' + n)) && arguments[4].equals(n % 2 == 0);
    }
}
