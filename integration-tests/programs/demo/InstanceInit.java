package demo;

/**
 * Instance initialiser blocks and field initialisers, which javac copies into every constructor
 * that calls super(...), across a small hierarchy.
 */
public class InstanceInit {
    static int counter;

    static int next() {
        return ++counter;
    }

    static class A {
        int x = next();
        int[] squares;

        {
            squares = new int[4];
            for (int i = 0; i < squares.length; i++) {
                squares[i] = i * i;
            }
        }

        A() {}

        A(int bump) {
            x += bump;
        }
    }

    static class B extends A {
        int y;

        {
            y = x * 10;
        }

        String label = "b" + y;

        B() {
            super(100);
        }

        B(String extra) {
            this();
            label = label + extra;
        }
    }

    public static void main(String[] args) {
        A a1 = new A();
        A a2 = new A(7);
        B b1 = new B();
        B b2 = new B("!");
        System.out.println(a1.x + " " + a2.x + " " + b1.y + " " + b2.label + " " + a2.squares[3]);
    }
}
