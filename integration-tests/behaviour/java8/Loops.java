import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Loops of every shape: nested and labelled with break and continue, do-while, while(true),
 * for-each over arrays and iterables, loops whose condition is a method call, loops in
 * constructors and static initialisers, and four nested loops in one method (the stress padding
 * goes into the first loop's header, so every outer back edge and exit has to be widened).
 */
public class Loops {
    static final int[] SQUARES;

    static {
        SQUARES = new int[12];
        for (int i = 0; i < SQUARES.length; i++) SQUARES[i] = i * i;
    }

    final List<String> items = new ArrayList<>();

    Loops(int n) {
        int i = 0;
        do {
            items.add("item" + i);
            i += 2;
        } while (i < n);
    }

    static int labelled(int n) {
        int count = 0;
        outer:
        for (int i = 0; i < n; i++) {
            middle:
            for (int j = 0; j < n; j++) {
                for (int k = 0; k < n; k++) {
                    if (k > j) continue middle;
                    if (i + j + k == n) continue outer;
                    if (i * j * k > 3 * n) break outer;
                    if (j == k && i == 1) break middle;
                    count += i ^ j ^ k;
                }
            }
        }
        return count;
    }

    static int fourDeep(int n) {
        int s = 0;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                for (int c = 0; c < n; c++) {
                    for (int d = 0; d < n; d++) {
                        s += (a * 7 + b * 5 + c * 3 + d) % 11;
                    }
                }
            }
        }
        return s;
    }

    static long collatz(long start) {
        long steps = 0;
        long x = start;
        while (x != 1) {
            x = (x & 1) == 0 ? x / 2 : 3 * x + 1;
            steps++;
        }
        return steps;
    }

    static int whileTrue(int limit) {
        int i = 0;
        int acc = 1;
        while (true) {
            acc = acc * 3 % 1009;
            if (acc == 1 || ++i >= limit) break;
        }
        return i * 10000 + acc;
    }

    static int doWhileContinue(int n) {
        int i = 0;
        int odd = 0;
        do {
            i++;
            if (i % 2 == 0) continue;
            odd += i;
        } while (i < n);
        return odd;
    }

    static boolean more(int[] counter) {
        return counter[0]++ < 5;
    }

    static String iterate() {
        StringBuilder sb = new StringBuilder();
        for (int sq : SQUARES) {
            if (sq % 2 == 1) continue;
            sb.append(sq).append(',');
        }
        List<String> words = Arrays.asList("alpha", "beta", "gamma", "delta");
        for (String w : words) sb.append(w.charAt(0));
        Iterator<String> it = words.iterator();
        while (it.hasNext()) {
            String w = it.next();
            if (w.startsWith("g")) break;
            sb.append(w.length());
        }
        int[] counter = {0};
        while (more(counter)) sb.append('!');
        char[][] grid = {"abc".toCharArray(), "de".toCharArray(), {}};
        for (char[] row : grid) {
            for (char ch : row) sb.append(Character.toUpperCase(ch));
            sb.append('|');
        }
        return sb.toString();
    }

    static int emptyBodies(int n) {
        int i = 0;
        while (i++ < n) {
            // nothing
        }
        int j;
        for (j = 0; j < n * 2; j++) ;
        return i + j;
    }

    static double converge(double x) {
        double guess = x;
        int iterations = 0;
        for (;;) {
            double next = (guess + x / guess) / 2;
            iterations++;
            if (Math.abs(next - guess) < 1e-12 || iterations > 100) return next + iterations * 1000;
            guess = next;
        }
    }

    public static void main(String[] args) {
        System.out.println("squares " + Arrays.toString(SQUARES));
        System.out.println("ctor items " + new Loops(7).items);
        for (int n = 1; n <= 6; n++) System.out.println("labelled " + n + " " + labelled(n));
        System.out.println("fourDeep " + fourDeep(9));
        long total = 0;
        for (long s = 1; s < 3000; s += 7) total += collatz(s);
        System.out.println("collatz " + total + " " + collatz(27));
        System.out.println("whileTrue " + whileTrue(50) + " " + whileTrue(5000));
        System.out.println("doWhileContinue " + doWhileContinue(1) + " " + doWhileContinue(20));
        System.out.println("iterate " + iterate());
        System.out.println("emptyBodies " + emptyBodies(10));
        System.out.println("converge " + converge(2) + " " + converge(1e6));
        int hits = 0;
        for (int i = 0; i < 200000; i++) {
            if ((i & (i - 1)) == 0) hits++;
        }
        System.out.println("powers of two below 200000: " + hits);
    }
}
