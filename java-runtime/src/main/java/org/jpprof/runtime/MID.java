package org.jpprof.runtime;

import java.lang.invoke.MethodHandles;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A method identifier: the class, name and descriptor of one instrumented method, as JP's engine
 * wrote them into the class. Compared by identity; every class loaded gets its own.
 */
public final class MID {
    private static final AtomicInteger NEXT_ID = new AtomicInteger();
    private static final int DEFAULT_ANALYSIS = 1;
    private static final int PRECISE_ANALYSIS = 2;
    /** The block analyses seen in instrumented classes so far, as a bit set. */
    private static volatile int analyses;

    /** The method's class, binary name ({@code com.acme.Main$Inner}). */
    public final String className;
    /** The method's name. */
    public final String name;
    /** The method's original JVMS descriptor. */
    public final String descriptor;
    /** An upper bound of the bytecodes the method runs between two activation checks. */
    public final int bound;
    /** Unique and sequential in this JVM; children are hashed by it. */
    public final int id;
    /** {@code className.name(descriptor)}, as profiles write it. */
    final String frame;

    private MID(String className, String name, String descriptor, int bound, String analysis) {
        this.className = className;
        this.name = name;
        this.descriptor = descriptor;
        this.bound = bound;
        this.id = NEXT_ID.getAndIncrement();
        this.frame = className + '.' + name + descriptor;
        int bit = "precise".equals(analysis) ? PRECISE_ANALYSIS : DEFAULT_ANALYSIS;
        if ((analyses & bit) == 0) {
            synchronized (MID.class) {
                analyses |= bit;
            }
        }
    }

    /**
     * The identifiers of a class's instrumented methods (class files before version 55), called
     * once at the start of its static initializer. {@code packed} is {@code '.'}-separated, a
     * character no method name or descriptor may hold: the block analysis, the class's internal
     * name, then name, descriptor and bound for each method.
     */
    public static MID[] table(String packed) {
        String[] parts = split(packed);
        if (parts.length < 2 || (parts.length - 2) % 3 != 0) {
            throw new IllegalArgumentException("malformed method table: " + packed);
        }
        String className = parts[1].replace('/', '.');
        MID[] mids = new MID[(parts.length - 2) / 3];
        for (int i = 0; i < mids.length; i++) {
            int at = 2 + 3 * i;
            mids[i] = new MID(className, parts[at], parts[at + 1], Integer.parseInt(parts[at + 2]), parts[0]);
        }
        return mids;
    }

    /**
     * The bootstrap of a method identifier's {@code CONSTANT_Dynamic} (class files from version
     * 55): the JVM calls it once per method, on first use.
     */
    public static MID bootstrap(MethodHandles.Lookup lookup, String constantName, Class<?> type, String analysis,
            String methodName, String descriptor, int bound) {
        return new MID(lookup.lookupClass().getName(), methodName, descriptor, bound, analysis);
    }

    /** {@code default}, {@code precise} or {@code mixed}: the analyses of the classes loaded so far. */
    static String analyses() {
        switch (analyses) {
            case PRECISE_ANALYSIS:
                return "precise";
            case DEFAULT_ANALYSIS | PRECISE_ANALYSIS:
                return "mixed";
            default:
                return "default";
        }
    }

    /** Splits on '.', without regular expressions (this runs in static initializers). */
    private static String[] split(String packed) {
        int count = 1;
        for (int i = 0; i < packed.length(); i++) {
            if (packed.charAt(i) == '.') count++;
        }
        String[] parts = new String[count];
        int start = 0;
        int n = 0;
        for (int i = 0; i <= packed.length(); i++) {
            if (i == packed.length() || packed.charAt(i) == '.') {
                parts[n++] = packed.substring(start, i);
                start = i + 1;
            }
        }
        return parts;
    }

    @Override
    public String toString() {
        return frame;
    }
}
