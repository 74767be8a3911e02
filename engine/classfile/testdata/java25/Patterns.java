import java.util.List;

/**
 * Pattern matching: record patterns, type patterns with guards and unnamed variables in switch
 * (invokedynamic to SwitchBootstraps.typeSwitch / enumSwitch), exhaustive switches over sealed types.
 */
public class Patterns {
    sealed interface Expr permits Num, Add, Mul, Neg { }

    record Num(int value) implements Expr { }

    record Add(Expr left, Expr right) implements Expr { }

    record Mul(Expr left, Expr right) implements Expr { }

    record Neg(Expr inner) implements Expr { }

    enum Color { RED, GREEN, BLUE }

    static int eval(Expr e) {
        return switch (e) {
            case Num(int v) -> v;
            case Add(Num(var a), Num(var b)) -> a + b;
            case Add(Expr l, Expr r) -> eval(l) + eval(r);
            case Mul(Num(int v), _) when v == 0 -> 0;
            case Mul(var l, var r) -> eval(l) * eval(r);
            case Neg(var inner) -> -eval(inner);
        };
    }

    static String describe(Object o) {
        return switch (o) {
            case null -> "null";
            case Integer i when i > 100 -> "big " + i;
            case Integer i -> "int " + i;
            case String s -> "string of " + s.length();
            case Color c when c == Color.RED -> "red";
            case Color c -> c.name();
            case int[] array -> "ints " + array.length;
            case List<?> list when list.isEmpty() -> "empty list";
            default -> o.getClass().getName();
        };
    }

    static int colors(Color c) {
        return switch (c) {
            case Color x when x.ordinal() > 1 -> 2;
            case RED -> 0;
            case GREEN, BLUE -> 1;
        };
    }

    /** Qualified enum constants as labels: javac passes them as condy EnumDesc bootstrap arguments. */
    static int qualified(Object o) {
        return switch (o) {
            case Color.RED -> 1;
            case Color c -> 2;
            default -> 3;
        };
    }

    static int ignored(List<String> items) {
        int n = 0;
        for (String _ : items) {
            n++;
        }
        try {
            return Integer.parseInt(items.getFirst()) + n;
        } catch (NumberFormatException _) {
            return n;
        }
    }
}
