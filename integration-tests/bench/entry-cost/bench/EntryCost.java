package bench;

/**
 * The cost of instrumented method entries, for the entry-cost benchmark (entry-cost.py): each
 * pattern is a loop over a small method that calls others, as real code does, timed in rounds in
 * one JVM; it prints the fastest round of each pattern in nanoseconds per outer call.
 *
 * <p>usage: java bench.EntryCost CALLS ROUNDS
 */
public final class EntryCost {
    private int value = 3;
    private static int sink;

    private int getter() {
        return value;
    }

    private int plus(int i) {
        return i + value;
    }

    private int xor(int i) {
        return i ^ value;
    }

    private int times(int i) {
        return i * value;
    }

    /** One call of a leaf method (a getter). */
    private int leaf(int i) {
        return i + getter();
    }

    /** Three different leaf methods in turn: a context whose children alternate. */
    private int alternating(int i) {
        int s = plus(i);
        s += xor(s);
        return s + times(s);
    }

    /** A chain of non-leaf methods, four deep. */
    private int deep(int i) {
        return i < 0 ? 0 : deeper(i) + 1;
    }

    private int deeper(int i) {
        return i < 0 ? 0 : deepest(i) + 1;
    }

    private int deepest(int i) {
        return i < 0 ? 0 : alternating(i);
    }

    /** Nanoseconds of CALLS outer calls of pattern WHICH; a loop of its own per pattern, so each call site stays monomorphic. */
    private long time(int which, int calls) {
        long start = System.nanoTime();
        int s = 0;
        switch (which) {
            case 0:
                for (int i = 0; i < calls; i++) s += leaf(i);
                break;
            case 1:
                for (int i = 0; i < calls; i++) s += alternating(i);
                break;
            default:
                for (int i = 0; i < calls; i++) s += deep(i);
        }
        sink += s;
        return System.nanoTime() - start;
    }

    public static void main(String[] args) {
        int calls = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        EntryCost target = new EntryCost();
        String[] names = {"leaf", "alternating", "deep"};
        for (int p = 0; p < names.length; p++) {
            long best = Long.MAX_VALUE;
            for (int r = 0; r < rounds; r++) {
                best = Math.min(best, target.time(p, calls));
            }
            System.out.printf("%s %.3f%n", names[p], (double) best / calls);
        }
        System.out.println("sink " + sink);
    }
}
