package demo;

/**
 * Methods of a class that run before its own static initialiser has begun. Initialising a class
 * first initialises its superclass and its superinterfaces that declare default methods (JVMS
 * 5.5), on the same thread; their initialisers may create an instance of the class, call its
 * static methods and call methods on that instance, all before the class's own {@code <clinit>}
 * starts. JP fills a class's table of method identifiers at the start of its {@code <clinit>}, so
 * these methods must find their identifiers without it.
 */
public class EarlyCalls {
    static class Base {
        static final Base FIRST = new Derived(3); // Derived's constructor, before Derived.<clinit>
        static final int SUM = Derived.sum(4); // a static method with a loop
        static final int SIZE = FIRST.size(); // a virtual call of a leaf method

        int size() {
            return 1;
        }
    }

    static class Derived extends Base {
        static final String NAME = String.valueOf(Base.SIZE); // a <clinit> of its own, run last

        final int n;

        Derived(int n) {
            this.n = n;
        }

        @Override
        int size() {
            return n;
        }

        static int sum(int k) {
            int s = 0;
            for (int i = 1; i <= k; i++) {
                s += i;
            }
            return s;
        }
    }

    interface Shape {
        Shape UNIT = new Square(1); // the implementing class's constructor, before its <clinit>

        int side();

        default int area() {
            return side() * side();
        }
    }

    static class Square implements Shape {
        final int side;

        Square(int side) {
            this.side = side;
        }

        @Override
        public int side() {
            return side;
        }
    }

    // expect: demo.EarlyCalls$Base.<clinit>()V;demo.EarlyCalls$Derived.sum(I)I calls=1 bytecodes=45
    // expect: demo.EarlyCalls$Base.<clinit>()V;demo.EarlyCalls$Derived.size()I calls=1 bytecodes=3
    // expect: demo.EarlyCalls$Shape.<clinit>()V;demo.EarlyCalls$Square.<init>(I)V calls=1 bytecodes=6
    public static void main(String[] args) {
        Derived derived = new Derived(5); // starts Derived's initialisation, which starts Base's
        Square square = new Square(2); // starts Square's initialisation, which starts Shape's
        System.out.println(derived.size() + " " + Base.FIRST.size() + " " + Base.SUM + " " + Base.SIZE + " "
                + Derived.NAME + " " + square.area() + " " + Shape.UNIT.area());
    }
}
