package sun.misc;

/**
 * The two methods of the JDK's {@code sun.misc.Unsafe} that the runtime calls, declared so that it
 * compiles for Java 8 (whose API, as javac's {@code --release 8} gives it, leaves the class out).
 * Only compiled against: it is not in the runtime's jar, and at run time the JDK's own class is
 * the one loaded.
 */
public final class Unsafe {
    private Unsafe() {}

    /** The offset of {@code field} in the objects of its class. */
    public native long objectFieldOffset(java.lang.reflect.Field field);

    /** The long at {@code offset} in {@code object}. */
    public native long getLong(Object object, long offset);
}
