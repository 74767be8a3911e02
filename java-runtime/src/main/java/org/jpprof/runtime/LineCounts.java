package org.jpprof.runtime;

/**
 * Bytecodes per source line of one method (docs/profiling.md, "Per-line counts"): a count for
 * every line from {@link #first} on, in an array. Immutable in its range: a count outside it
 * makes a new, wider object, so a reader on another thread never sees a range and an array that
 * do not belong together. A method's lines are mostly close together, so the array stays small.
 */
final class LineCounts {
    /** The line of {@code counts[0]}. */
    final int first;
    /** Bytecodes per line, from {@link #first} on; 0 for a line with no count. */
    final long[] counts;

    private LineCounts(int first, long[] counts) {
        this.first = first;
        this.counts = counts;
    }

    /** {@code lines} (null for none) widened to cover {@code line}: a new object, counts copied. */
    static LineCounts covering(LineCounts lines, int line) {
        if (lines == null) return new LineCounts(line, new long[1]);
        int first = Math.min(lines.first, line);
        int last = Math.max(lines.first + lines.counts.length - 1, line);
        long[] counts = new long[last - first + 1];
        System.arraycopy(lines.counts, 0, counts, lines.first - first, lines.counts.length);
        return new LineCounts(first, counts);
    }

    /**
     * The sum of {@code into} and {@code from} (either may be null): {@code into} itself when it
     * covers {@code from}'s lines, else a new object. {@code from} is never changed or kept.
     */
    static LineCounts add(LineCounts into, LineCounts from) {
        if (from == null) return into;
        LineCounts sum = covering(covering(into, from.first), from.first + from.counts.length - 1);
        if (into != null && sum.first == into.first && sum.counts.length == into.counts.length) sum = into;
        for (int i = 0; i < from.counts.length; i++) {
            sum.counts[from.first - sum.first + i] += from.counts[i];
        }
        return sum;
    }
}
