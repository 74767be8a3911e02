package perf;

/**
 * Runs a workload: one warm-up round, then the measured rounds, all in this JVM. Every round must
 * give the same checksum, which an instrumented run must reproduce.
 *
 * <p>Arguments: the number of measured rounds (default: the workload's own, chosen so that
 * a whole uninstrumented run takes a few seconds). System property {@code perf.size}:
 * {@code full} (the default) or {@code small} (smaller inputs, for the benchmark's quick mode).
 *
 * <p>Prints one line on standard output, parsed by run.sh:
 * {@code NAME checksum=C rounds=N warmup_ms=W time_ms=T}, where T is the time of the measured
 * rounds. Each round's time also goes to standard error.
 */
final class Workload {
    private Workload() {}

    interface Round {
        long run() throws Exception;
    }

    /** Whether the inputs are the small ones of the quick mode. */
    static boolean small() {
        String size = System.getProperty("perf.size", "full");
        if (!size.equals("full") && !size.equals("small")) {
            throw new IllegalArgumentException("perf.size must be full or small, not " + size);
        }
        return size.equals("small");
    }

    /** {@code full} or, in the quick mode, {@code small}. */
    static int size(int full, int small) {
        return small() ? small : full;
    }

    static void main(String name, String[] args, int defaultRounds, Round round) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : defaultRounds;
        long start = System.nanoTime();
        long checksum = round.run();
        long warmup = (System.nanoTime() - start) / 1_000_000;
        System.err.println(name + ": warm-up round " + warmup + " ms");
        start = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            long roundStart = System.nanoTime();
            long again = round.run();
            if (again != checksum) {
                throw new IllegalStateException(name + ": round " + i + " gave checksum " + again + ", not " + checksum);
            }
            System.err.println(name + ": round " + i + " " + (System.nanoTime() - roundStart) / 1_000_000 + " ms");
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println(name + " checksum=" + checksum + " rounds=" + rounds + " warmup_ms=" + warmup + " time_ms=" + millis);
    }

    /** Mixes a value into a checksum (an FNV-style step, so that order matters). */
    static long mix(long checksum, long value) {
        return (checksum ^ value) * 0x100000001b3L;
    }
}
