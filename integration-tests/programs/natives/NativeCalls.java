package natives;

/**
 * Native methods of an instrumented class, and calls from them back into Java: static, instance
 * and synchronized natives of every return type, one bound by RegisterNatives rather than by its
 * JNI name, natives that throw and callbacks that throw through a native, and a callback that
 * calls a native again. The library ({@code native_calls.c}) is the first argument, loaded with
 * {@code System.load}. Deterministic: fixed work, no timing.
 */
public final class NativeCalls {
    private final int base;
    /** What {@code accept} added up. */
    private int total;

    private NativeCalls(int base) {
        this.base = base;
    }

    static native int sum(int[] values);

    static native boolean isEven(int n);

    static native byte low(int n);

    static native char letter(int i);

    static native short twice(short s);

    static native float half(float f);

    static native String describe(Object o);

    static native void visit(NativeCalls calls, int n);

    static native void fail(String message);

    /** Bound by RegisterNatives when the library loads. */
    static native int registered(int n);

    native long weighted(long factor);

    synchronized native double mean(double a, double b);

    native NativeCalls next();

    /** Called back by {@code weighted}. */
    int weight(int i) {
        return base * i + 1;
    }

    /** Called back by {@code visit}: calls a native again. */
    void accept(int i) {
        if (i == 2) {
            throw new IllegalArgumentException("visit " + i);
        }
        total += sum(new int[] {i, base});
    }

    @Override
    public String toString() {
        return "NativeCalls(" + base + ")";
    }

    public static void main(String[] args) {
        System.load(args[0]);
        NativeCalls calls = new NativeCalls(3);
        System.out.println("sum " + sum(new int[] {1, 2, 3, 4}));
        System.out.println("even " + isEven(4) + " " + isEven(7));
        System.out.println("low " + low(0x1234));
        System.out.println("letter " + letter(2));
        System.out.println("twice " + twice((short) 21));
        System.out.println("half " + half(5f));
        System.out.println("describe " + describe(calls));
        System.out.println("registered " + registered(20));
        System.out.println("weighted " + calls.weighted(10L));
        System.out.println("mean " + calls.mean(1.0, 4.0));
        System.out.println("next " + calls.next().next());
        try {
            visit(calls, 4);
        } catch (IllegalArgumentException e) {
            System.out.println("visit threw " + e.getMessage() + ", total " + calls.total);
        }
        for (int i = 0; i < 3; i++) {
            try {
                fail("failure " + i);
            } catch (IllegalStateException e) {
                System.out.println("fail threw " + e.getMessage());
            }
        }
    }
}
