import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Java 17: records (compact constructors that validate, static factories, nested and local
 * records), sealed interfaces, pattern instanceof, switch expressions with arrows and with yield
 * (on ints, strings and enums, exhaustive without default), text blocks, var, interfaces with
 * private and private static methods, and nest mates reaching each other's private members.
 */
public class Modern {
    sealed interface Expr permits Num, Add, Mul, Neg {}

    record Num(long value) implements Expr {}

    record Add(Expr left, Expr right) implements Expr {}

    record Mul(Expr left, Expr right) implements Expr {}

    record Neg(Expr inner) implements Expr {}

    record Range(int from, int to) {
        Range {
            if (from > to) throw new IllegalArgumentException("from " + from + " > to " + to);
        }

        Range(int to) {
            this(to < 0 ? to : 0, Math.max(to, 0));
        }

        int length() {
            return to - from;
        }

        static Range of(String s) {
            var parts = s.split("\\.\\.");
            return new Range(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
        }
    }

    enum Level { LOW, MEDIUM, HIGH }

    interface Greeter {
        String name();

        default String greet(int times) {
            return repeat(prefix() + name(), times);
        }

        private String prefix() {
            return "hi ";
        }

        private static String repeat(String s, int times) {
            var sb = new StringBuilder();
            for (int i = 0; i < times; i++) sb.append(i == 0 ? "" : ", ").append(s);
            return sb.toString();
        }
    }

    static long eval(Expr e) {
        if (e instanceof Num n) return n.value();
        if (e instanceof Add a) return eval(a.left()) + eval(a.right());
        if (e instanceof Mul m && m.left() instanceof Num n && n.value() == 0) return 0;
        if (e instanceof Mul m) return eval(m.left()) * eval(m.right());
        if (e instanceof Neg neg) return -eval(neg.inner());
        throw new AssertionError(e);
    }

    static String kind(int code) {
        return switch (code) {
            case 0, 1 -> "small";
            case 2 -> {
                String s = "two";
                for (int i = 0; i < 2; i++) s = s + "!";
                yield s;
            }
            case 100, 200, 300 -> "round";
            default -> {
                if (code < 0) yield "negative";
                yield code > 1000 ? "huge" : "other";
            }
        };
    }

    static int score(String word) {
        int bonus = switch (word) {
            case "Aa", "BB":
                yield 7;
            case "record":
                yield 3;
            case "sealed":
                int n = 0;
                for (char c : word.toCharArray()) n += c;
                yield n % 10;
            default:
                yield word.length();
        };
        return bonus * 2;
    }

    static String level(Level level) {
        return switch (level) {
            case LOW -> "l";
            case MEDIUM -> "m";
            case HIGH -> "h";
        };
    }

    private int hidden = 5;

    class Peer {
        int peek() {
            return hidden++ + bump(2);
        }
    }

    private int bump(int by) {
        hidden += by;
        return hidden;
    }

    public static void main(String[] args) {
        Expr e = new Add(new Mul(new Num(6), new Num(7)), new Neg(new Add(new Num(2), new Mul(new Num(0), new Num(9)))));
        System.out.println(e + " = " + eval(e));
        System.out.println(new Range(3, 9) + " " + new Range(3, 9).length() + " " + new Range(-4) + " " + Range.of("2..5"));
        System.out.println("equal " + new Range(1, 2).equals(Range.of("1..2")) + " hash "
                + (new Range(1, 2).hashCode() == Range.of("1..2").hashCode()));
        try {
            new Range(5, 1);
        } catch (IllegalArgumentException ex) {
            System.out.println("rejected " + ex.getMessage());
        }
        for (int c : new int[] {0, 2, 3, 200, -5, 5000}) System.out.print(kind(c) + " ");
        System.out.println();
        for (String w : List.of("Aa", "BB", "record", "sealed", "switch")) System.out.print(score(w) + " ");
        System.out.println();
        for (Level l : Level.values()) System.out.print(level(l));
        System.out.println();
        Greeter g = () -> "nest";
        System.out.println(g.greet(3));
        String block = """
                Text blocks keep
                  their indentation, \
                join lines
                and end here.""";
        System.out.println(block);
        var outer = new Modern();
        var peer = outer.new Peer();
        var seen = new ArrayList<Integer>();
        for (int i = 0; i < 4; i++) seen.add(peer.peek());
        System.out.println("nest mates " + seen + " hidden " + outer.hidden);
        record Pair(String name, double weight) {}
        var pairs = new ArrayList<Pair>();
        for (int i = 0; i < 3; i++) pairs.add(new Pair("p" + i, i * 1.5));
        System.out.println(pairs + " " + Objects.hash(pairs.get(1).name(), pairs.get(1).weight()));
    }
}
