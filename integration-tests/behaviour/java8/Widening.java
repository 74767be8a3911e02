import java.util.ArrayList;
import java.util.List;

/**
 * Shapes that matter once `jp-stress --pad` pushes branches past 32 KB, so that they are widened
 * (goto_w, and an inverted conditional over a goto_w whose fall-through needs a new frame):
 * conditionals whose fall-through is a loop header with a frame of its own (a merge point whose
 * locals are less precise than what the code before it stores), loops that start at pc 0,
 * conditional back edges (do-while), try/catch around a padded loop, and switches whose targets
 * lie beyond the padding.
 */
public class Widening {
    // The fall-through of `b` is the do-while's header: its frame says Object, while the code
    // before it only stored null.
    static String mergeAfterCondition(Object a, boolean b, int n) {
        Object o = null;
        if (a != null && b) {
            do {
                o = Integer.valueOf(n);
                n--;
            } while (n > 0);
        }
        return String.valueOf(o);
    }

    // The same with a declared interface type and a precise stored type (ArrayList).
    static int declaredInterface(String s, int limit) {
        List<String> parts = new ArrayList<>();
        int i = 0;
        if (s != null) {
            while (i < limit) {
                if (i % 3 == 0) parts = new java.util.LinkedList<>(parts);
                parts.add(s + i);
                i++;
            }
        }
        return parts.size() * 100 + (parts instanceof ArrayList ? 1 : 2);
    }

    // The loop header is the first instruction of the method.
    static int loopAtEntry(int n) {
        do {
            n -= 3;
        } while (n > 0);
        return n;
    }

    static long guardedLoop(int[] values) {
        long sum = 0;
        try {
            for (int i = 0; ; i++) {
                sum += values[i] * (long) i;
                if (values[i] < 0) throw new IllegalStateException("negative at " + i);
            }
        } catch (ArrayIndexOutOfBoundsException e) {
            return sum;
        } catch (IllegalStateException e) {
            return -sum;
        }
    }

    static String switchAfterLoop(int k) {
        int x = k;
        while (x > 10) x /= 2;
        switch (x) {
            case 0: return "zero";
            case 1: return "one";
            case 5: return "five";
            case 7: return "seven";
            case 10: return "ten";
            default: return "x" + x;
        }
    }

    static int nestedWithEarlyExit(int n) {
        int found = -1;
        search:
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                if (i * j == 42) {
                    found = i * 100 + j;
                    break search;
                }
            }
        }
        return found;
    }

    public static void main(String[] args) {
        System.out.println(mergeAfterCondition("a", true, 3) + " " + mergeAfterCondition(null, true, 3)
                + " " + mergeAfterCondition("a", false, 3));
        System.out.println(declaredInterface("s", 7) + " " + declaredInterface(null, 7) + " " + declaredInterface("t", 1));
        System.out.println(loopAtEntry(10) + " " + loopAtEntry(-4));
        System.out.println(guardedLoop(new int[] {1, 2, 3}) + " " + guardedLoop(new int[] {1, -2, 3}));
        for (int k : new int[] {0, 1, 5, 7, 10, 20, 1000, 77}) System.out.print(switchAfterLoop(k) + " ");
        System.out.println();
        System.out.println(nestedWithEarlyExit(10) + " " + nestedWithEarlyExit(5));
    }
}
