/**
 * Sealed hierarchies (PermittedSubclasses), nestmates (NestHost/NestMembers, private access
 * without accessors), pattern matching for instanceof, switch expressions and text blocks.
 */
public sealed interface Sealed permits Sealed.Circle, Sealed.Square, Sealed.Shape {
    record Circle(double radius) implements Sealed { }

    record Square(double side) implements Sealed { }

    abstract sealed class Shape implements Sealed permits Triangle, Polygon {
        private int corners;

        int corners() {
            return corners;
        }
    }

    final class Triangle extends Shape {
        Triangle() {
            setCorners(this, 3);
        }
    }

    non-sealed class Polygon extends Shape { }

    private static void setCorners(Shape s, int n) {
        s.corners = n; // a private field of a nestmate, no accessor
    }

    static double area(Sealed s) {
        if (s instanceof Circle c) {
            return Math.PI * c.radius() * c.radius();
        } else if (s instanceof Square q && q.side() > 0) {
            return q.side() * q.side();
        }
        return -1;
    }

    static String kind(String name) {
        return switch (name) {
            case "circle", "round" -> "Circle";
            case "square" -> {
                String text = """
                    four equal sides
                    and four right angles
                    """;
                yield text.lines().findFirst().orElse("");
            }
            default -> throw new IllegalArgumentException(name);
        };
    }

    static int dayLength(java.time.DayOfWeek day) {
        return switch (day) {
            case SATURDAY, SUNDAY -> 0;
            default -> 8;
        };
    }
}
