package org.jpprof.runtime;

import java.util.Arrays;

/**
 * Allocations per type in one context (docs/profiling.md, "Allocations"): a type's Java name
 * ({@code int[]}, {@code java.lang.String}) and how many of its allocation instructions ran there.
 * A context allocates few types, so a short list searched from the start beats a hash table; the
 * names come from string constants, interned, so a type is found by identity. Only the owning
 * thread changes it; a reader on another thread (at JVM exit) may miss the latest counts.
 */
final class AllocationCounts {
    private String[] types = new String[2];
    private long[] counts = new long[2];
    private int size;

    /** Adds {@code n} allocations of {@code type}. */
    void add(String type, long n) {
        String[] names = types;
        int i = 0;
        while (i < size && names[i] != type) i++;
        if (i == size) i = indexOf(type);
        counts[i] += n;
    }

    /** The slot of {@code type}, compared by value (a merge's names need not be the same objects), added when new. */
    private int indexOf(String type) {
        for (int i = 0; i < size; i++) {
            if (types[i].equals(type)) return i;
        }
        if (size == types.length) {
            String[] names = Arrays.copyOf(types, size * 2);
            long[] values = Arrays.copyOf(counts, size * 2);
            // The counts first: a reader that sees the new names sees their counts.
            counts = values;
            types = names;
        }
        types[size] = type;
        return size++;
    }

    /** The number of types counted. */
    int size() {
        return Math.min(size, Math.min(types.length, counts.length));
    }

    /** The name of the type at {@code i}, below {@link #size}. */
    String type(int i) {
        return types[i];
    }

    /** The count of the type at {@code i}, below {@link #size}. */
    long count(int i) {
        return counts[i];
    }

    /**
     * The sum of {@code into} and {@code from} (either may be null): {@code into} itself, or a new
     * object when it is null. {@code from} is never changed or kept.
     */
    static AllocationCounts add(AllocationCounts into, AllocationCounts from) {
        if (from == null) return into;
        AllocationCounts sum = into == null ? new AllocationCounts() : into;
        for (int i = 0, n = from.size(); i < n; i++) {
            sum.add(from.type(i), from.count(i));
        }
        return sum;
    }
}
