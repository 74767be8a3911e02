package org.jpprof.runtime;

import java.util.Arrays;

/**
 * The exact extra metrics of one context (docs/profiling.md, "Allocations" and "Probes"): a
 * metric's name ({@code allocations:int[]}, {@code sql-statements}) and its count there. A context
 * counts few metrics, so a short list searched from the start beats a hash table; the names come
 * from string constants, interned, so a metric is found by identity. Only the owning thread
 * changes it; a reader on another thread (at JVM exit) may miss the latest counts.
 */
final class MetricCounts {
    private String[] names = new String[2];
    private long[] counts = new long[2];
    private int size;

    /** Adds {@code n} to the metric {@code name}. */
    void add(String name, long n) {
        String[] known = names;
        int i = 0;
        while (i < size && known[i] != name) i++;
        if (i == size) i = indexOf(name);
        counts[i] += n;
    }

    /** The slot of {@code name}, compared by value (a merge's names need not be the same objects), added when new. */
    private int indexOf(String name) {
        for (int i = 0; i < size; i++) {
            if (names[i].equals(name)) return i;
        }
        if (size == names.length) {
            String[] grown = Arrays.copyOf(names, size * 2);
            long[] values = Arrays.copyOf(counts, size * 2);
            // The counts first: a reader that sees the new names sees their counts.
            counts = values;
            names = grown;
        }
        names[size] = name;
        return size++;
    }

    /** The number of metrics counted. */
    int size() {
        return Math.min(size, Math.min(names.length, counts.length));
    }

    /** The name of the metric at {@code i}, below {@link #size}. */
    String name(int i) {
        return names[i];
    }

    /** The count of the metric at {@code i}, below {@link #size}. */
    long count(int i) {
        return counts[i];
    }

    /**
     * The sum of {@code into} and {@code from} (either may be null): {@code into} itself, or a new
     * object when it is null. {@code from} is never changed or kept.
     */
    static MetricCounts add(MetricCounts into, MetricCounts from) {
        if (from == null) return into;
        MetricCounts sum = into == null ? new MetricCounts() : into;
        for (int i = 0, n = from.size(); i < n; i++) {
            sum.add(from.name(i), from.count(i));
        }
        return sum;
    }
}
