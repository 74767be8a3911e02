package org.jpprof.runtime;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A method identifier: the class, name and descriptor of one instrumented method, as JP's engine
 * wrote them into the class. Compared by identity. There is one per method, whatever class loader
 * loads its class: a class loaded again (by a new class loader of an application server or a
 * per-test loader) gets the identifiers, and so the calling contexts, it had, and memory does not
 * grow with every load. A class loaded again changed (a hot reload) gets new identifiers for all
 * its methods, since its table differs: its contexts are then kept apart from the old ones until
 * the profile, which merges contexts by name.
 */
public final class MID {
    private static final AtomicInteger NEXT_ID = new AtomicInteger();
    /**
     * The identifiers of every class's table ({@link #table}) made so far, by the table's string: a
     * constant of the class, which the JVM interns, so the key costs nothing of its own.
     */
    private static final ConcurrentHashMap<String, MID[]> TABLES = new ConcurrentHashMap<String, MID[]>();
    /**
     * The identifiers of interfaces' methods made so far, by their key
     * {@code bba.class.name.descriptor.bound} (the class's internal name), the string constant
     * they pass to {@link #method}.
     */
    private static final ConcurrentHashMap<String, MID> BY_KEY = new ConcurrentHashMap<String, MID>();
    /** The identifiers of test contexts ({@link #test}), by test id. */
    private static final ConcurrentHashMap<String, MID> BY_TEST = new ConcurrentHashMap<String, MID>();
    /** What a test context's frame name starts with: no method's frame can (see docs/runtime.md). */
    static final String TEST_FRAME_PREFIX = "[test] ";
    /** The flag ({@code +sites}) a table's analysis has for a class instrumented with call sites. */
    private static final String SITES_FLAG = "sites";
    /** The flag ({@code +extra}) a table's analysis has for a class that counts lines or metrics. */
    private static final String EXTRA_FLAG = "extra";
    private static final int DEFAULT_ANALYSIS = 1;
    private static final int PRECISE_ANALYSIS = 2;
    /** {@link #analysis}'s bits for the flags. */
    private static final int SITES = 4;
    private static final int EXTRA = 8;
    /** The block analyses seen in instrumented classes so far, as a bit set. */
    private static volatile int analyses;

    /** The method's class, binary name ({@code com.acme.Main$Inner}); empty for a test context. */
    public final String className;
    /** The method's name; the test id for a test context. */
    public final String name;
    /** The method's original JVMS descriptor; empty for a test context. */
    public final String descriptor;
    /** An upper bound of the bytecodes the method runs between two activation checks. */
    public final int bound;
    /** Unique and sequential in this JVM; children are hashed by it. */
    public final int id;
    /**
     * {@code className.name(descriptor)}, or {@code [test] <test id>}, as profiles write it; null
     * until {@link #frame()} makes it.
     */
    private String frame;
    /** Whether this identifies a test context rather than a method. */
    private final boolean test;
    /**
     * {@code (name + descriptor).hashCode()}: what a call site names as its invoke's target
     * ({@link RC#site}), so that a callee can tell a site meant for it from one left by a call
     * into uninstrumented code.
     */
    final int signature;
    /**
     * The call site of a site-keyed identifier ({@link #at}): {@code line << 16 | bci} of the
     * invoke in the caller, line 0 where unknown; {@link #NO_SITE} for a method's own identifier.
     */
    public final int site;
    /**
     * Whether the method was instrumented with call sites: its contexts are {@link SiteIC}s. Its
     * class's table names the analysis with {@code +sites} ({@code precise+sites}), so a class
     * instrumented both ways gets two identifiers per method.
     */
    final boolean callSites;
    /**
     * Whether the method's class counts bytecodes per line or exact extra metrics: its contexts
     * are {@link ExtraIC}s. Its table names the analysis with {@code +extra} ({@code precise+extra},
     * {@code precise+sites+extra}).
     */
    final boolean extra;
    /** The site-keyed identifiers of this method ({@link #at}), open addressing by site; copied on write. */
    private volatile MID[] sites;
    /** The value of {@link #site} for an identifier not keyed by a call site. */
    public static final int NO_SITE = -1;

    private MID(String className, String name, String descriptor, int bound, int analysis) {
        this.className = className;
        // Interned: methods share most names and descriptors, and a program loads many methods.
        this.name = name.intern();
        this.descriptor = descriptor.intern();
        this.bound = bound;
        this.id = NEXT_ID.getAndIncrement();
        this.test = false;
        this.signature = (name + descriptor).hashCode();
        this.site = NO_SITE;
        this.callSites = (analysis & SITES) != 0;
        this.extra = (analysis & EXTRA) != 0;
        int bit = analysis & (PRECISE_ANALYSIS | DEFAULT_ANALYSIS);
        if ((analyses & bit) == 0) {
            synchronized (MID.class) {
                analyses |= bit;
            }
        }
    }

    /**
     * {@code className.name(descriptor)}, or {@code [test] <test id>}, as profiles write it. Made on
     * first use, which is the method's first context ({@link IC}): a program loads many more
     * methods than it runs, and only the ones it runs have a context to write. Two threads may both
     * make it; either's string will do.
     */
    final String frame() {
        String made = frame;
        if (made == null) {
            frame = made = className + '.' + name + descriptor;
        }
        return made;
    }

    /** A test context's identifier: its bound is 0, since no method runs as it. */
    private MID(String testId) {
        this.className = "";
        this.name = testId;
        this.descriptor = "";
        this.bound = 0;
        this.id = NEXT_ID.getAndIncrement();
        this.frame = TEST_FRAME_PREFIX + testId;
        this.test = true;
        this.signature = 0;
        this.site = NO_SITE;
        this.callSites = false;
        this.extra = false;
    }

    /** {@code method} as called from {@code site}: the same method, keyed apart in a context's children. */
    private MID(MID method, int site) {
        this.className = method.className;
        this.name = method.name;
        this.descriptor = method.descriptor;
        this.bound = method.bound;
        this.id = NEXT_ID.getAndIncrement();
        this.frame = method.frame();
        this.test = false;
        this.signature = method.signature;
        this.site = site;
        this.callSites = method.callSites;
        this.extra = method.extra;
    }

    /**
     * This method as called from {@code site} ({@code line << 16 | bci}): one identifier per
     * method and site in this JVM, so that a context's children, keyed by identifier, keep the
     * sites apart at no cost to calls without one. Lock-free once made.
     */
    MID at(int site) {
        MID[] table = sites;
        if (table != null) {
            int mask = table.length - 1;
            for (int i = spread(site) & mask; table[i] != null; i = (i + 1) & mask) {
                if (table[i].site == site) return table[i];
            }
        }
        return addSite(site);
    }

    private synchronized MID addSite(int site) {
        MID[] table = sites;
        int count = 0;
        if (table != null) {
            for (MID made : table) {
                if (made == null) continue;
                if (made.site == site) return made;
                count++;
            }
        }
        int length = table == null ? 4 : table.length;
        while ((count + 1) * 2 > length) length *= 2;
        MID[] grown = new MID[length];
        if (table != null) {
            for (MID made : table) {
                if (made != null) put(grown, made);
            }
        }
        MID made = new MID(this, site);
        put(grown, made);
        sites = grown;
        return made;
    }

    private static void put(MID[] table, MID mid) {
        int mask = table.length - 1;
        int i = spread(mid.site) & mask;
        while (table[i] != null) i = (i + 1) & mask;
        table[i] = mid;
    }

    /** Sites differ in their low bits (the bci) and high bits (the line): mix both. */
    private static int spread(int site) {
        return site ^ (site >>> 16);
    }

    /**
     * The identifier of the test context of {@code testId} (see {@link Tests}): one per test id,
     * so that a test run again adds up in the same context.
     */
    static MID test(String testId) {
        MID mid = BY_TEST.get(testId);
        if (mid != null) {
            return mid;
        }
        MID made = new MID(testId);
        MID first = BY_TEST.putIfAbsent(testId, made);
        return first != null ? first : made;
    }

    /** Whether this identifies a test context (frame {@code [test] <test id>}) rather than a method. */
    public boolean isTest() {
        return test;
    }

    /**
     * The identifiers of a class's instrumented methods, called once at the start of its static
     * initializer. {@code packed} is {@code '.'}-separated, a character no method name or
     * descriptor may hold: the block analysis, the class's internal name, then name, descriptor
     * and bound for each method.
     */
    public static MID[] table(String packed) {
        MID[] known = TABLES.get(packed);
        if (known != null) {
            return known;
        }
        String[] parts = split(packed);
        if (parts.length < 2 || (parts.length - 2) % 3 != 0) {
            throw new IllegalArgumentException("malformed method table: " + packed);
        }
        // One class name and analysis for all the class's identifiers: there are as many as methods.
        String className = binaryName(parts[1]);
        int analysis = analysis(parts[0]);
        MID[] mids = new MID[(parts.length - 2) / 3];
        for (int i = 0; i < mids.length; i++) {
            int at = 2 + 3 * i;
            mids[i] = new MID(className, parts[at], parts[at + 1], Integer.parseInt(parts[at + 2]), analysis);
        }
        MID[] first = TABLES.putIfAbsent(packed, mids);
        return first != null ? first : mids;
    }

    /**
     * The identifier of one method of an interface, from {@code bba.class.name.descriptor.bound}.
     * Interfaces hold no identifier field (a field of an interface is public, and reflection would
     * show it), so their methods call this at every entry: a lookup of a string constant's hash,
     * which the string keeps.
     */
    public static MID method(String key) {
        MID mid = BY_KEY.get(key);
        if (mid != null) {
            return mid;
        }
        String[] parts = split(key);
        if (parts.length != 5) {
            throw new IllegalArgumentException("malformed method identifier: " + key);
        }
        MID made = new MID(binaryName(parts[1]), parts[2], parts[3], Integer.parseInt(parts[4]), analysis(parts[0]));
        MID first = BY_KEY.putIfAbsent(key, made);
        return first != null ? first : made;
    }

    /**
     * A table's analysis as bits: the block analysis ({@code default} or {@code precise}), then
     * its flags, each {@code +name}.
     */
    private static int analysis(String analysis) {
        String[] parts = analysis.split("\\+", -1);
        int bits = "precise".equals(parts[0]) ? PRECISE_ANALYSIS : DEFAULT_ANALYSIS;
        for (int i = 1; i < parts.length; i++) {
            if (SITES_FLAG.equals(parts[i])) bits |= SITES;
            if (EXTRA_FLAG.equals(parts[i])) bits |= EXTRA;
        }
        return bits;
    }

    /** The binary name of the class of internal name {@code internalName}. */
    private static String binaryName(String internalName) {
        return internalName.replace('/', '.');
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
