import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Inner classes reaching their outer instance's private fields and methods (synthetic accessors
 * before Java 11, nest mates after), anonymous and local classes capturing locals, static nested
 * classes, abstract classes, interfaces with default and static methods, super calls, and enums
 * with constant bodies, abstract methods and switch-free dispatch.
 */
public class Classes {
    private int secret = 42;
    private final List<String> events = new ArrayList<>();

    private void record(String event) {
        events.add(event);
    }

    private static long mangle(long x, int y) {
        return x * 31 + y;
    }

    interface Shape {
        double area();

        default String describe() {
            return name() + " of area " + Math.round(area() * 100) / 100.0;
        }

        default String name() {
            return getClass().getSimpleName();
        }

        static Shape unit() {
            return () -> 1.0;
        }
    }

    abstract static class Polygon implements Shape {
        final int sides;

        Polygon(int sides) {
            this.sides = sides;
        }

        @Override
        public String name() {
            return sides + "-gon";
        }
    }

    static class Square extends Polygon {
        final double side;

        Square(double side) {
            super(4);
            this.side = side;
        }

        @Override
        public double area() {
            return side * side;
        }

        @Override
        public String describe() {
            return "square: " + super.describe();
        }
    }

    static class Circle implements Shape {
        final double r;

        Circle(double r) {
            this.r = r;
        }

        @Override
        public double area() {
            return Math.PI * r * r;
        }
    }

    class Counter {
        private int count;

        void bump(int by) {
            for (int i = 0; i < by; i++) {
                count++;
                secret++;
            }
            record("bump " + by + " -> " + count);
        }
    }

    enum Op {
        ADD("+") {
            @Override
            long apply(long a, long b) {
                return a + b;
            }
        },
        MUL("*") {
            @Override
            long apply(long a, long b) {
                long r = 0;
                for (long i = 0; i < b; i++) r += a;
                return r;
            }
        },
        POW("^") {
            @Override
            long apply(long a, long b) {
                return b == 0 ? 1 : a * apply(a, b - 1);
            }

            @Override
            String symbol() {
                return "**";
            }
        };

        private final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        abstract long apply(long a, long b);

        String symbol() {
            return symbol;
        }
    }

    Iterable<Integer> range(final int from, final int to) {
        final int step = secret % 2 == 0 ? 1 : 2;
        return new Iterable<Integer>() {
            @Override
            public Iterator<Integer> iterator() {
                return new Iterator<Integer>() {
                    int next = from;

                    @Override
                    public boolean hasNext() {
                        return next < to;
                    }

                    @Override
                    public Integer next() {
                        int r = next;
                        next += step;
                        record("next " + r);
                        return r;
                    }
                };
            }
        };
    }

    String local(int n) {
        class Acc {
            long total;

            void add(long v) {
                total = mangle(total, (int) v) % 1000003;
            }
        }
        Acc acc = new Acc();
        for (int i = 0; i < n; i++) acc.add(i + secret);
        return "local " + acc.total;
    }

    static class Nested {
        static int created;

        Nested() {
            created++;
        }
    }

    public static void main(String[] args) {
        Shape[] shapes = {new Square(3), new Circle(1.5), Shape.unit(), new Polygon(6) {
            @Override
            public double area() {
                return 6 * 2.5;
            }
        }};
        for (Shape s : shapes) {
            String d = s.describe();
            // Lambda and anonymous class names depend on the compiler, not on the engine.
            System.out.println(d.contains("$") ? "synthetic " + d.substring(d.indexOf(" of area")) : d);
        }
        Classes outer = new Classes();
        Counter c = outer.new Counter();
        c.bump(3);
        c.bump(5);
        System.out.println("secret " + outer.secret + " count " + c.count);
        int sum = 0;
        for (int i : outer.range(2, 9)) sum += i;
        System.out.println("range sum " + sum);
        System.out.println(outer.local(50));
        for (int i = 0; i < 3; i++) new Nested();
        System.out.println("nested " + Nested.created);
        Map<Op, Long> results = new EnumMap<>(Op.class);
        for (Op op : Op.values()) results.put(op, op.apply(3, 4));
        for (Map.Entry<Op, Long> e : results.entrySet()) {
            System.out.println(e.getKey() + " " + e.getKey().symbol() + " " + e.getValue() + " "
                    + e.getKey().getDeclaringClass().getSimpleName() + " " + Op.valueOf(e.getKey().name()).ordinal());
        }
        System.out.println("events " + outer.events);
    }
}
