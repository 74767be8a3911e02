package sites;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Methods called from several call sites, for JP's --call-sites against the oracle's sites=on:
 * each site of a caller is a context of its own, with its line; calls from uninstrumented code (the
 * JDK's sort calling a comparator) have no site, nor has a static initializer that an invoke runs.
 */
public final class Sites {
    interface Shape {
        int area();
    }

    static final class Square implements Shape {
        private final int side;

        Square(int side) {
            this.side = side;
        }

        @Override
        public int area() {
            return side * side;
        }
    }

    static final class Table {
        static final int[] SQUARES = new int[4];

        static {
            for (int i = 0; i < SQUARES.length; i++) {
                SQUARES[i] = square(i);
            }
        }

        static int lookup(int i) {
            return SQUARES[i % SQUARES.length];
        }
    }

    static final class ByArea implements Comparator<Shape> {
        @Override
        public int compare(Shape a, Shape b) {
            return Integer.compare(a.area(), b.area());
        }
    }

    static int square(int x) {
        return x * x;
    }

    static int fib(int n) {
        if (n < 2) {
            return n;
        }
        return fib(n - 1)
                + fib(n - 2);
    }

    public static void main(String[] args) {
        long sum = 0;
        for (int i = 0; i < 5; i++) {
            sum += square(i);
        }
        for (int i = 0; i < 3; i++) {
            sum += square(i + 1);
        }
        sum += square(2) + square(3);
        sum += Table.lookup(7);
        List<Shape> shapes = new ArrayList<>();
        shapes.add(new Square(3));
        shapes.add(new Square(1));
        shapes.add(new Square(2));
        Collections.sort(shapes, new ByArea());
        for (Shape shape : shapes) {
            sum += shape.area();
        }
        sum += shapes.get(0).area();
        sum += fib(6);
        System.out.println("sum " + sum);
    }
}
