package demo;

import java.util.ArrayList;
import java.util.List;

/** Nested and labelled loops with break and continue, do-while, while(true) and for-each. */
public class Loops {
    static int labelled(int n) {
        int hits = 0;
        outer:
        for (int i = 0; i < n; i++) {
            inner:
            for (int j = 0; j < n; j++) {
                if (j > i) {
                    continue outer;
                }
                if ((i + j) % 5 == 4) {
                    continue inner;
                }
                if (i * j > 30) {
                    break outer;
                }
                hits++;
            }
        }
        return hits;
    }

    static int doWhile(int n) {
        int steps = 0;
        do {
            n = n % 2 == 0 ? n / 2 : 3 * n + 1;
            steps++;
        } while (n != 1);
        return steps;
    }

    static int whileTrue(int limit) {
        int i = 0;
        int sum = 0;
        while (true) {
            if (i >= limit) {
                break;
            }
            sum += i++;
        }
        return sum;
    }

    static int fourDeep(int n) {
        int count = 0;
        for (int a = 0; a < n; a++) {
            for (int b = a; b < n; b++) {
                for (int c = b; c < n; c++) {
                    for (int d = c; d < n; d++) {
                        if ((a ^ b ^ c ^ d) == 0) {
                            count++;
                        }
                    }
                }
            }
        }
        return count;
    }

    static long forEach(int[] values, List<Integer> list) {
        long sum = 0;
        for (int v : values) {
            sum += v;
        }
        for (Integer v : list) {
            sum += v * 2L;
        }
        return sum;
    }

    public static void main(String[] args) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            list.add(i * i);
        }
        System.out.println(labelled(12) + " " + doWhile(27) + " " + whileTrue(40) + " " + fourDeep(7) + " "
                + forEach(new int[] {3, 1, 4, 1, 5, 9, 2, 6}, list));
    }
}
