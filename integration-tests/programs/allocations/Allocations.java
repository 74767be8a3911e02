package allocations;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Every allocation instruction (new, newarray of each primitive kind, anewarray, multianewarray),
 * in every kind of context: loops, constructors before super(...) and this(...), static
 * initializers, lambdas and method references, exception paths (an allocation that throws, one in
 * a handler, exceptions created and thrown) and threads. The output depends on nothing but the
 * program.
 */
public class Allocations {
    static final int[] TABLE = new int[4];
    static final Object[][] GRID = new Object[2][3];

    static class Base {
        final Object held;

        Base(Object held) {
            this.held = held;
        }
    }

    static class Derived extends Base {
        Derived(int n) {
            super(new long[n]); // allocated before super(...)
            StringBuilder later = new StringBuilder();
            later.append(n);
        }

        Derived() {
            this(new char[2].length); // allocated before this(...)
        }
    }

    static class Lazy {
        static final List<String> NAMES = new ArrayList<>();

        Lazy() {
            NAMES.add("lazy");
        }
    }

    static int primitives(int n) {
        boolean[] z = new boolean[n];
        byte[] b = new byte[n];
        char[] c = new char[n];
        short[] s = new short[n];
        int[] i = new int[n];
        long[] j = new long[n];
        float[] f = new float[n];
        double[] d = new double[n];
        return z.length + b.length + c.length + s.length + i.length + j.length + f.length + d.length;
    }

    static int objects(int n) {
        String[] names = new String[n];
        Object[][] rows = new Object[n][];
        int[][] square = new int[n][n];
        int[][][] partial = new int[n][n][];
        String[][] table = new String[2][n];
        List<int[]> list = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            list.add(new int[k]);
        }
        return names.length + rows.length + square.length + partial.length + table.length + list.size();
    }

    static int failing(int n) {
        try {
            int[] negative = new int[-n];
            return negative.length;
        } catch (NegativeArraySizeException e) {
            Object[] after = new Object[1];
            return after.length;
        }
    }

    static void thrower(int depth) {
        if (depth == 0) throw new IllegalStateException("deep");
        Object[] frame = new Object[depth];
        thrower(depth - 1 + frame.length * 0);
    }

    static int exceptions() {
        int caught = 0;
        for (int k = 0; k < 3; k++) {
            try {
                thrower(k);
            } catch (IllegalStateException e) {
                caught += new RuntimeException(e).getCause() == e ? 1 : 0;
            }
        }
        return caught;
    }

    static int lambdas() {
        Supplier<int[]> make = () -> new int[3];
        IntFunction<String[]> arrays = String[]::new;
        Supplier<Derived> derived = Derived::new;
        int sum = 0;
        for (int k = 0; k < 4; k++) {
            sum += make.get().length + arrays.apply(k).length;
        }
        return sum + (derived.get().held instanceof long[] ? 1 : 0);
    }

    static int threads() throws InterruptedException {
        List<Thread> started = new ArrayList<>();
        int[] results = new int[3];
        for (int t = 0; t < 3; t++) {
            final int index = t;
            Thread thread = new Thread(() -> results[index] = primitives(index + 1) + objects(index));
            started.add(thread);
            thread.start();
        }
        for (Thread thread : started) {
            thread.join();
        }
        return results[0] + results[1] + results[2];
    }

    public static void main(String[] args) throws InterruptedException {
        int total = TABLE.length + GRID.length;
        for (int k = 0; k < 5; k++) {
            total += primitives(k) + objects(k);
        }
        total += new Derived(3).held.hashCode() * 0 + new Derived().hashCode() * 0;
        new Lazy();
        total += Lazy.NAMES.size();
        total += failing(2) + exceptions() + lambdas() + threads();
        System.out.println("allocations: " + total);
    }
}
