package allocations;

/**
 * Allocates in proportion to its argument N: one int[][] of N rows in main, and N int[] rows in
 * row(), one per call. Two runs with different N differ by exactly their rows, in row() alone.
 */
public class Grow {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int[][] rows = new int[n][];
        for (int i = 0; i < n; i++) {
            rows[i] = row(i);
        }
        System.out.println(rows.length + " rows, the last of " + rows[n - 1].length);
    }

    static int[] row(int i) {
        return new int[i + 1];
    }
}
