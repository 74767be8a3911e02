package demo;

/**
 * Interfaces with default, static and private methods; a class that picks one of two defaults
 * with I.super.m(); an interface default that calls an abstract method implemented by a class.
 */
public class Interfaces {
    interface Shape {
        double area();

        default String describe() {
            return name() + " of area " + rounded();
        }

        default String name() {
            return "shape";
        }

        private long rounded() {
            return Math.round(area());
        }

        static Shape square(double side) {
            return () -> side * side;
        }
    }

    interface Named {
        default String name() {
            return "named";
        }
    }

    static final class Circle implements Shape, Named {
        final double r;

        Circle(double r) {
            this.r = r;
        }

        @Override
        public double area() {
            return 3 * r * r;
        }

        @Override
        public String name() {
            return Shape.super.name() + "/" + Named.super.name();
        }
    }

    static final class Rect implements Shape {
        final double w;
        final double h;

        Rect(double w, double h) {
            this.w = w;
            this.h = h;
        }

        @Override
        public double area() {
            return w * h;
        }
    }

    public static void main(String[] args) {
        Shape[] shapes = {new Circle(2), new Rect(2, 5), Shape.square(3)};
        StringBuilder sb = new StringBuilder();
        for (Shape s : shapes) {
            sb.append(s.describe()).append("; ");
        }
        System.out.println(sb);
    }
}
