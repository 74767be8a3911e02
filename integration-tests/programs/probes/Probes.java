package probes;

/**
 * Takes locks in several contexts (nested, in a loop, in a constructor), throws and rethrows,
 * reads and writes arrays, and calls {@link Sink}'s record methods from several contexts, for the
 * probes of jp.toml next to it (check (g) of the oracle suite). The output depends on nothing but
 * the program.
 */
public final class Probes {
    private static final Object LOCK = new Object();
    private static int held;

    private final int id;

    Probes(int id) {
        synchronized (LOCK) {
            held++;
        }
        this.id = id;
    }

    static void lockOnce() {
        synchronized (LOCK) {
            held++;
        }
    }

    static void lockNested(Object inner) {
        synchronized (LOCK) {
            synchronized (inner) {
                held++;
            }
        }
    }

    static int check(int k) {
        if (k < 0) {
            throw new IllegalArgumentException("negative: " + k);
        }
        return k;
    }

    static int rethrow(int k) {
        try {
            return check(k);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e);
        }
    }

    static long arrays(int n) {
        int[] ints = new int[n];
        long[] longs = new long[n];
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            ints[i] = i;
            longs[i] = 2L * i;
            names[i] = "n" + i;
        }
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += ints[i] + longs[i] + names[i].length();
        }
        return sum;
    }

    /** Record i gets ("r" + i, i, 10 i, 'a' + i, i even): what Handler expects. */
    static void record(Sink sink, int times) {
        for (int i = 0; i < times; i++) {
            sink.record("r" + i, i, 10L * i, (char) ('a' + i), i % 2 == 0);
        }
    }

    public static void main(String[] args) {
        for (int i = 0; i < 3; i++) {
            lockOnce();
        }
        Object inner = new Object();
        for (int i = 0; i < 2; i++) {
            lockNested(inner);
        }
        int made = new Probes(1).id + new Probes(2).id;
        int failed = 0;
        for (int k = -2; k < 3; k++) {
            try {
                check(k);
            } catch (IllegalArgumentException e) {
                failed++;
            }
            try {
                rethrow(k);
            } catch (IllegalStateException e) {
                failed++;
            }
        }
        Sink sink = new Sink();
        record(sink, 3);
        sink.record("main", 7, 70L, 'h', false);
        Sink.recordStatic(2.5, new int[] {4, 5});
        System.out.println("held " + held + " made " + made + " failed " + failed + " arrays " + arrays(4)
                + " records " + sink.count + " statics " + Sink.statics);
    }
}
