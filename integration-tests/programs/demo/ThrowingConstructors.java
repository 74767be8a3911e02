package demo;

/**
 * Constructors that throw in or before their super(...)/this(...) call: no exception handler can
 * cover that call, so what the constructor ran before it (argument arithmetic, branches, calls)
 * must still be counted when the superclass constructor, or an argument, throws.
 */
public class ThrowingConstructors {
    static int check(int v) {
        if (v < 0) {
            throw new IllegalArgumentException("negative: " + v);
        }
        return v;
    }

    static class Base {
        final int value;

        Base(int value) {
            if (value > 100) {
                throw new IllegalStateException("too big: " + value);
            }
            this.value = value;
        }
    }

    static class Derived extends Base {
        Derived(int x) {
            super(check(x) * 3 + (x > 5 ? x - 1 : x + 1)); // check or Base may throw
        }

        Derived(int x, int y) {
            this(x > y ? x - y : y - x); // Derived(int) may throw
        }
    }

    static class Summing extends Base {
        Summing(int[] values) {
            super(values.length == 0 ? 0 : values[0] + values[values.length - 1] + values.length);
        }
    }

    static String attempt(int x) {
        try {
            return "ok " + new Derived(x).value;
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    public static void main(String[] args) {
        StringBuilder out = new StringBuilder();
        for (int x = -3; x <= 40; x += 7) {
            out.append(attempt(x)).append(' ');
        }
        for (int y = 0; y < 200; y += 50) {
            try {
                out.append(new Derived(7, y).value).append(' ');
            } catch (IllegalStateException | IllegalArgumentException e) {
                out.append("thrown ");
            }
        }
        try {
            new Summing(new int[] {60, 2, 3, 50});
        } catch (IllegalStateException e) {
            out.append("summing thrown ");
        }
        out.append(new Summing(new int[0]).value);
        System.out.println(out);
    }
}
