package org.jpprof.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

/**
 * Thread ids read so that no subclass of {@link Thread} can change them. {@code Thread.getId()}
 * may be overridden: an override that is instrumented would call {@link RC#current()} again
 * without end, and one that returns the same id for several threads would make them share a
 * root. So the id comes from {@code Thread.threadId()}, final since Java 19, and on older JVMs
 * from the field behind it: a field load once compiled, and unique per thread for the life of
 * the JVM (ids are never reused).
 */
final class ThreadIds {
    private ThreadIds() {}

    private static final MethodType ID_TYPE = MethodType.methodType(long.class, Thread.class);

    private static final MethodHandle READER = reader();
    /** Whether ids can be read; when not, every thread keeps its root in a ThreadLocal. */
    static final boolean AVAILABLE = READER != null;
    /** {@code (Thread)long}: the thread's id; 0 for every thread when ids cannot be read. */
    static final MethodHandle ID = AVAILABLE ? READER
            : MethodHandles.dropArguments(MethodHandles.constant(long.class, 0L), 0, Thread.class);

    /** The id of {@code thread}. */
    static long of(Thread thread) {
        try {
            return (long) ID.invokeExact(thread);
        } catch (Throwable e) {
            throw new AssertionError(e); // a field load or a final getter: nothing to throw
        }
    }

    private static MethodHandle reader() {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        try {
            return lookup.findVirtual(Thread.class, "threadId", MethodType.methodType(long.class));
        } catch (ReflectiveOperationException e) {
            // before Java 19: the field
        }
        try {
            Class<?> unsafeType = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeType.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            Object unsafe = theUnsafe.get(null);
            Field tid = Thread.class.getDeclaredField("tid");
            long offset = (Long) unsafeType.getMethod("objectFieldOffset", Field.class).invoke(unsafe, tid);
            MethodHandle getLong = lookup.findVirtual(unsafeType, "getLong",
                    MethodType.methodType(long.class, Object.class, long.class));
            return MethodHandles.insertArguments(getLong.bindTo(unsafe), 1, offset).asType(ID_TYPE);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
