package perf;

/**
 * Runs a workload: one warm-up round, then the measured rounds. Prints the checksum (which an
 * instrumented run must reproduce) and the measured time.
 */
final class Workload {
    private Workload() {}

    interface Round {
        long run() throws Exception;
    }

    static void main(String name, String[] args, Round round) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        long checksum = round.run();
        long start = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            long again = round.run();
            if (again != checksum) throw new IllegalStateException(name + ": round " + i + " gave " + again + ", not " + checksum);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println(name + " checksum=" + checksum + " rounds=" + rounds + " time_ms=" + millis);
    }
}
