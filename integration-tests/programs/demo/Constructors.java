package demo;

/**
 * Constructor chains through this(...) and super(...), field initialisers that run between the
 * super call and the body, arguments computed by static methods before super(...), a
 * constructor that throws, and constructors of nested classes.
 */
public class Constructors {
    static int check(int v) {
        return v < 0 ? 0 : v;
    }

    static class Base {
        final int a;
        int seen = initialValue();

        Base() {
            this(1);
        }

        Base(int a) {
            this.a = check(a);
            seen++;
        }

        int initialValue() {
            return 10;
        }
    }

    static class Middle extends Base {
        final String name;

        Middle() {
            this("middle");
        }

        Middle(String name) {
            super(name.length() > 3 ? name.length() : -1);
            this.name = name;
        }

        @Override
        int initialValue() {
            return 20; // called from Base's field initialiser, before Middle's fields are set
        }
    }

    static class Leaf extends Middle {
        final int[] data = new int[check(3)];

        Leaf(int x) {
            super(x > 0 ? "positive" : "no");
            for (int i = 0; i < data.length; i++) {
                data[i] = x + i;
            }
        }
    }

    static class Picky {
        final int v;

        Picky(int v) {
            if (v == 13) {
                throw new IllegalArgumentException("unlucky");
            }
            this.v = v;
        }
    }

    public static void main(String[] args) {
        int sum = 0;
        sum += new Base().a + new Base(-5).seen;
        sum += new Middle().a + new Middle("ab").seen;
        Leaf leaf = new Leaf(4);
        sum += leaf.data[2] + leaf.seen + leaf.a;
        for (int i = 11; i < 15; i++) {
            try {
                sum += new Picky(i).v;
            } catch (IllegalArgumentException e) {
                sum += 1000;
            }
        }
        System.out.println(sum);
    }
}
