package demo;

import java.util.EnumMap;
import java.util.Map;

/**
 * Enums with constructors, fields, constant-specific bodies (each a subclass), abstract methods,
 * values(), valueOf() (the JDK calls values() back through reflection) and an EnumMap.
 */
public class Enums {
    enum Op {
        ADD("+") {
            @Override
            int apply(int a, int b) {
                return a + b;
            }
        },
        SUB("-") {
            @Override
            int apply(int a, int b) {
                return a - b;
            }
        },
        MUL("*") {
            @Override
            int apply(int a, int b) {
                return a * b;
            }

            @Override
            boolean commutative() {
                return true;
            }
        };

        final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        abstract int apply(int a, int b);

        boolean commutative() {
            return this == ADD;
        }
    }

    enum Planet {
        MERCURY(3), VENUS(6), EARTH(6);

        private final int size;

        Planet(int size) {
            this.size = size;
        }

        int size() {
            return size;
        }
    }

    public static void main(String[] args) {
        StringBuilder sb = new StringBuilder();
        for (Op op : Op.values()) {
            sb.append(op.symbol).append(op.apply(7, 3)).append(op.commutative() ? "c" : "n").append(' ');
        }
        Op parsed = Op.valueOf("MUL");
        Planet p = Planet.valueOf("EARTH");
        Map<Planet, Integer> sizes = new EnumMap<>(Planet.class);
        for (Planet planet : Planet.values()) {
            sizes.put(planet, planet.size() * parsed.apply(2, 2));
        }
        System.out.println(sb + " " + p.ordinal() + " " + sizes);
    }
}
