/**
 * Constructors whose code before {@code super(...)} or {@code this(...)} branches: ternaries in
 * the arguments (frames with uninitializedThis), a {@code new} whose own arguments branch (frames
 * with Uninitialized(offset) on the stack), calls with loops in the argument list, and handlers
 * after the super call. Also inner-class constructors, exceptions thrown from constructors, and
 * an enum whose constructor branches.
 */
public class Constructors {
    static class Base {
        final String label;
        final long weight;

        Base(String label, long weight) {
            this.label = label;
            this.weight = weight;
        }

        Base(Object o) {
            this(String.valueOf(o), o == null ? -1L : o.toString().length());
        }

        @Override
        public String toString() {
            return label + "/" + weight;
        }
    }

    static class Box {
        final int value;

        Box(int value) {
            this.value = value;
        }

        @Override
        public String toString() {
            return "Box" + value;
        }
    }

    static int sumTo(int n) {
        int s = 0;
        for (int i = 1; i <= n; i++) s += i;
        return s;
    }

    static class Derived extends Base {
        final double ratio;

        Derived(int x) {
            super(x > 0 ? "pos" : x < 0 ? "neg" : "zero", x > 10 ? (long) x * x : sumTo(Math.abs(x)));
            double r;
            try {
                r = 100.0 / x;
                if (Double.isInfinite(r)) throw new ArithmeticException("infinite");
            } catch (ArithmeticException e) {
                r = -1;
            }
            ratio = r;
        }

        Derived(boolean flag, int x) {
            this(flag ? x : -x);
        }

        Derived(String s) {
            // new Box(...) is on the stack, uninitialised, while its argument branches.
            super(new Box(s == null ? 0 : s.isEmpty() ? 1 : s.length() * 10));
            ratio = s == null ? 0.5 : 1.5;
        }

        @Override
        public String toString() {
            return super.toString() + " ratio " + ratio;
        }
    }

    static class Fails extends Base {
        Fails(int x) {
            super(check(x), x);
        }

        static String check(int x) {
            if (x % 2 == 1) throw new IllegalArgumentException("odd " + x);
            return "even";
        }
    }

    class Inner extends Base {
        Inner(int n) {
            super(prefix + (n > 2 ? "big" : "small"), n * factor);
        }
    }

    enum Planet {
        MERCURY(0.38), EARTH(1.0), JUPITER(2.53), NONE(-1);

        final String kind;
        final double gravity;

        Planet(double g) {
            kind = g < 0 ? "invalid" : g < 1 ? "light" : g > 2 ? "heavy" : "normal";
            gravity = g < 0 ? 0 : g;
        }
    }

    final String prefix;
    final int factor;

    Constructors(String prefix, int factor) {
        this.prefix = prefix;
        this.factor = factor;
    }

    Constructors() {
        this(System.getProperty("no.such.property") == null ? "p-" : "q-", sumTo(4));
    }

    public static void main(String[] args) {
        for (int x : new int[] {-3, 0, 4, 12}) System.out.println("Derived(" + x + ") " + new Derived(x));
        System.out.println("Derived(true, 5) " + new Derived(true, 5));
        System.out.println("Derived(false, 5) " + new Derived(false, 5));
        for (String s : new String[] {null, "", "abc"}) System.out.println("Derived(\"" + s + "\") " + new Derived(s));
        System.out.println("Base(null) " + new Base((Object) null) + " Base(obj) " + new Base(new StringBuilder("xyz")));
        for (int x = 0; x < 4; x++) {
            try {
                System.out.println("Fails(" + x + ") " + new Fails(x));
            } catch (IllegalArgumentException e) {
                System.out.println("Fails(" + x + ") threw " + e.getMessage());
            }
        }
        Constructors outer = new Constructors();
        for (int n = 1; n < 5; n++) System.out.println("Inner(" + n + ") " + outer.new Inner(n));
        for (Planet p : Planet.values()) System.out.println(p + " " + p.kind + " " + p.gravity);
    }
}
