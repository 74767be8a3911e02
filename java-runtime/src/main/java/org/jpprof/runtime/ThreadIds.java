package org.jpprof.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

/**
 * Thread ids read so that no subclass of {@link Thread} can change them. {@code Thread.getId()}
 * may be overridden: an override that is instrumented would call {@link RC#current()} again
 * without end, and one that returns the same id for several threads would make them share a
 * root. So the id is the field behind it, unique per thread for the life of the JVM (ids are
 * never reused).
 *
 * <p>Every method entry reads it, so how matters. Up to Java 23 it is one load of the field through
 * {@code sun.misc.Unsafe}, which the interpreter, C1 and C2 all turn into a plain load. Java 24
 * warns about {@code Unsafe}'s memory access, so from there on (and wherever {@code Unsafe} cannot
 * be had) a method handle to {@code Thread.threadId()} (final since Java 19) reads it: as cheap
 * once C2 has inlined it, but much dearer in the interpreter and to compile.
 */
final class ThreadIds {
    private ThreadIds() {}

    /** The first Java version whose {@code sun.misc.Unsafe} warns about memory access. */
    private static final int UNSAFE_WARNS_FROM = 24;

    /** The JDK's {@code Unsafe} and the offset of {@code Thread.tid}, or null and -1 when not used. */
    private static final sun.misc.Unsafe UNSAFE;
    private static final long TID_OFFSET;

    static {
        sun.misc.Unsafe unsafe = null;
        long offset = -1;
        if (javaVersion(System.getProperty("java.specification.version", "")) < UNSAFE_WARNS_FROM) {
            try {
                Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
                theUnsafe.setAccessible(true);
                unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
                offset = unsafe.objectFieldOffset(Thread.class.getDeclaredField("tid"));
                // Read once here, so that a JVM that refuses the access falls back now, not at an entry.
                if (unsafe.getLong(Thread.currentThread(), offset) == 0) offset = -1;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                offset = -1;
            }
        }
        UNSAFE = offset >= 0 ? unsafe : null;
        TID_OFFSET = offset;
    }

    /** {@code (Thread)long}, when {@code Unsafe} is not used: the thread's id, or null when none can be read. */
    private static final MethodHandle READER = TID_OFFSET >= 0 ? null : reader();
    /** Whether ids can be read; when not, every thread keeps its root in a ThreadLocal. */
    static final boolean AVAILABLE = TID_OFFSET >= 0 || READER != null;
    /** {@code (Thread)long}: the thread's id by {@link #READER}; 0 for every thread when none can be read. */
    private static final MethodHandle ID = READER != null ? READER
            : MethodHandles.dropArguments(MethodHandles.constant(long.class, 0L), 0, Thread.class);

    /** Whether ids are read through {@link #UNSAFE}: a constant, which the JIT compilers fold. */
    private static final boolean BY_UNSAFE = TID_OFFSET >= 0;

    /** The id of {@code thread}. */
    static long of(Thread thread) {
        if (BY_UNSAFE) return UNSAFE.getLong(thread, TID_OFFSET);
        return byHandle(thread);
    }

    /**
     * The id of the calling thread: {@link #of} the current thread, within the inlining limit of
     * its place on an entry's path (see {@link RC#current}).
     */
    static long current() {
        Thread thread = Thread.currentThread();
        if (BY_UNSAFE) return UNSAFE.getLong(thread, TID_OFFSET);
        return byHandle(thread);
    }

    /** The id of {@code thread} through {@link #ID}. */
    private static long byHandle(Thread thread) {
        try {
            return (long) ID.invokeExact(thread);
        } catch (Throwable e) {
            throw new AssertionError(e); // a final getter or a constant: nothing to throw
        }
    }

    /** The feature version of {@code java.specification.version}: 8 for "1.8", 17 for "17"; 0 if unreadable. */
    static int javaVersion(String specification) {
        String feature = specification.startsWith("1.") ? specification.substring(2) : specification;
        int dot = feature.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? feature : feature.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A method handle to {@code Thread.threadId()}, or null before Java 19. */
    private static MethodHandle reader() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "threadId", MethodType.methodType(long.class));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
