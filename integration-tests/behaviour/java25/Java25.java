import java.util.ArrayList;
import java.util.List;
import java.util.stream.Gatherers;
import java.util.stream.IntStream;

/**
 * Java 25: flexible constructor bodies (statements, branches, loops and a try/catch before
 * {@code super(...)} and {@code this(...)}, assigning fields early: frames with uninitializedThis
 * at loop headers), switches with type and record patterns, guards and {@code case null}, nested
 * record deconstruction, unnamed variables, and stream gatherers.
 */
public class Java25 {
    sealed interface Shape permits Circle, Rect, Group {}

    record Circle(double r) implements Shape {}

    record Rect(double w, double h) implements Shape {}

    record Group(List<Shape> members, String name) implements Shape {}

    record Point(int x, int y) {}

    record Line(Point from, Point to) {}

    static class Base {
        final String label;

        Base(String label) {
            this.label = label;
            describe();
        }

        void describe() {}
    }

    static class Checked extends Base {
        private final int limit;
        private int seen;

        Checked(int[] values, int limit) {
            int sum = 0;
            for (int v : values) {
                if (v < 0) throw new IllegalArgumentException("negative " + v);
                sum += v;
            }
            String label;
            try {
                label = "sum " + (100 / (sum - 10));
            } catch (ArithmeticException e) {
                label = "sum ten";
            }
            this.limit = limit > sum ? limit : sum; // a field assigned before super(...)
            super(label);
        }

        Checked(String csv) {
            String[] parts = csv.split(",");
            int[] values = new int[parts.length];
            int i = 0;
            while (i < parts.length) {
                values[i] = Integer.parseInt(parts[i].trim());
                i++;
            }
            this(values, parts.length > 3 ? 1000 : 0);
        }

        @Override
        void describe() {
            seen = limit; // runs from Base's constructor: limit is already set
        }

        @Override
        public String toString() {
            return label + " limit " + limit + " seen " + seen;
        }
    }

    static double area(Shape s) {
        return switch (s) {
            case Circle c when c.r() == 0 -> 0;
            case Circle(double r) -> Math.PI * r * r;
            case Rect(double w, double h) when w == h -> w * w;
            case Rect(var w, var h) -> w * h;
            case Group(var members, _) -> {
                double total = 0;
                for (Shape m : members) total += area(m);
                yield total;
            }
        };
    }

    static String classify(Object o) {
        return switch (o) {
            case null -> "null";
            case Integer i when i > 100 -> "big int " + i;
            case Integer i -> "int " + i;
            case Long l -> "long " + l;
            case String s when s.isEmpty() -> "empty string";
            case String s -> "string of " + s.length();
            case Line(Point(var x1, var y1), Point(int x2, int y2)) when x1 == x2 -> "vertical line at " + x1 + " " + y1 + ".." + y2;
            case Line(Point from, Point _) -> "line from " + from;
            case int[] a -> "ints " + a.length;
            default -> "other " + o.getClass().getSimpleName();
        };
    }

    public static void main(String[] args) {
        for (String csv : new String[] {"1, 2, 3", "4,6", "5,5,5,5", "7,-1"}) {
            try {
                System.out.println("Checked(" + csv + ") " + new Checked(csv));
            } catch (IllegalArgumentException e) {
                System.out.println("Checked(" + csv + ") threw " + e.getMessage());
            }
        }
        List<Shape> shapes = List.of(new Circle(0), new Circle(1), new Rect(2, 2), new Rect(2, 3),
                new Group(List.of(new Rect(1, 1), new Group(List.of(new Circle(2)), "inner")), "outer"));
        for (Shape s : shapes) System.out.printf("%s %.4f%n", s, area(s));
        Object[] things = {null, 7, 700, 8L, "", "abc", new Line(new Point(1, 2), new Point(1, 9)),
                new Line(new Point(0, 0), new Point(3, 4)), new int[3], 2.5};
        for (Object o : things) System.out.println(classify(o));
        int unnamed = 0;
        for (var _ : List.of(1, 2, 3)) unnamed++;
        System.out.println("unnamed " + unnamed);
        List<List<Integer>> windows = IntStream.rangeClosed(1, 10).boxed().gather(Gatherers.windowFixed(3)).toList();
        System.out.println("windows " + windows);
        var running = new ArrayList<Integer>();
        IntStream.rangeClosed(1, 6).boxed().gather(Gatherers.scan(() -> 0, Integer::sum)).forEach(running::add);
        System.out.println("running " + running);
    }
}
