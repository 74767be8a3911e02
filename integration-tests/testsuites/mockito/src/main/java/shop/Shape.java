package shop;

/** Package shapes: a sealed interface over records. */
public sealed interface Shape permits Shape.Box, Shape.Tube {
    long volume();

    record Box(int w, int h, int d) implements Shape {
        public long volume() {
            return (long) w * h * d;
        }
    }

    record Tube(int r, int l) implements Shape {
        public long volume() {
            return 3L * r * r * l;
        }
    }

    static String describe(Shape shape) {
        if (shape instanceof Box box) return "box " + box.volume();
        if (shape instanceof Tube tube) return "tube " + tube.volume();
        throw new AssertionError(shape);
    }
}
