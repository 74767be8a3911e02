import java.util.ArrayList;
import java.util.List;

/**
 * Builds a calling context for every path of digits through ten methods (222,222 for the
 * argument 100000), then takes all the heap that is left but a little, and holds it to the end:
 * the agent has to take the tree over and write the profile with almost nothing left. Prints the
 * sum, as the plain run does, and on stderr how much it held.
 */
public class Starved {
    static final List<long[]> HELD = new ArrayList<long[]>();

    public static void main(String[] args) {
        int count = Integer.parseInt(args[0]);
        long sum = 0;
        for (int i = 0; i < count; i++) sum += step(i, count / 10);
        System.out.println("sum " + sum);
        try {
            while (true) HELD.add(new long[1 << 14]);
        } catch (OutOfMemoryError e) {
            for (int i = 0; i < 64 && !HELD.isEmpty(); i++) HELD.remove(HELD.size() - 1);
        }
        System.err.println("held " + (HELD.size() >> 3) + " MB");
    }

    /** Calls the method of {@code i}'s digit at {@code unit}, then the next digit's, down to the last. */
    static long step(int i, int unit) {
        if (unit == 0) return i & 7;
        switch (i / unit % 10) {
            case 0: return d0(i, unit / 10);
            case 1: return d1(i, unit / 10);
            case 2: return d2(i, unit / 10);
            case 3: return d3(i, unit / 10);
            case 4: return d4(i, unit / 10);
            case 5: return d5(i, unit / 10);
            case 6: return d6(i, unit / 10);
            case 7: return d7(i, unit / 10);
            case 8: return d8(i, unit / 10);
            default: return d9(i, unit / 10);
        }
    }

    static long d0(int i, int unit) { return step(i, unit) + 0; }
    static long d1(int i, int unit) { return step(i, unit) + 1; }
    static long d2(int i, int unit) { return step(i, unit) + 2; }
    static long d3(int i, int unit) { return step(i, unit) + 3; }
    static long d4(int i, int unit) { return step(i, unit) + 4; }
    static long d5(int i, int unit) { return step(i, unit) + 5; }
    static long d6(int i, int unit) { return step(i, unit) + 6; }
    static long d7(int i, int unit) { return step(i, unit) + 7; }
    static long d8(int i, int unit) { return step(i, unit) + 8; }
    static long d9(int i, int unit) { return step(i, unit) + 9; }
}
