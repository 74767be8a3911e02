package demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Records (release 17): a compact constructor that validates, an explicit accessor, a static
 * factory, records as keys (equals and hashCode generated through invokedynamic) and a
 * hand-written equals on a nested record.
 */
public class Records {
    record Point(int x, int y) {
        Point {
            if (x < 0 || y < 0) {
                throw new IllegalArgumentException("negative");
            }
        }

        static Point of(int v) {
            return new Point(v, v * 2);
        }

        int manhattan() {
            return x + y;
        }
    }

    record Named(String name, Point where) {
        @Override
        public String name() {
            return name.toUpperCase();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Named n && n.name.equals(name) && Objects.equals(n.where, where);
        }

        @Override
        public int hashCode() {
            return name.hashCode() * 31 + where.hashCode();
        }
    }

    public static void main(String[] args) {
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            points.add(Point.of(i));
        }
        int sum = 0;
        for (Point p : points) {
            sum += p.manhattan();
        }
        int rejected = 0;
        try {
            new Point(-1, 2);
        } catch (IllegalArgumentException e) {
            rejected++;
        }
        Named a = new Named("a", points.get(2));
        Named b = new Named("a", Point.of(2));
        System.out.println(sum + " " + rejected + " " + a.equals(b) + " " + (a.hashCode() == b.hashCode()) + " "
                + a.name() + " " + points.contains(new Point(3, 6)) + " " + points.get(1));
    }
}
