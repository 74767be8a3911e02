package demo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Lambdas and method references handed to the JDK: streams, Collections.sort with a comparator,
 * forEach, Comparator.comparing, Optional, function composition. Lambda classes are hidden
 * classes, never selected, so each lambda body (a synthetic method of this class) hangs under
 * the nearest selected frame: the method that runs the stream or the sort.
 */
public class Lambdas {
    static boolean isPrime(int n) {
        if (n < 2) {
            return false;
        }
        for (int d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }

    static int square(int x) {
        return x * x;
    }

    final int factor;

    Lambdas(int factor) {
        this.factor = factor;
    }

    int scale(int x) {
        return x * factor;
    }

    static int streams() {
        return IntStream.rangeClosed(1, 60).filter(Lambdas::isPrime).map(Lambdas::square).sum();
    }

    static List<String> sorted() {
        List<String> words = new ArrayList<>(Arrays.asList("pear", "fig", "banana", "kiwi", "apple", "date"));
        Collections.sort(words, (a, b) -> a.length() != b.length() ? a.length() - b.length() : a.compareTo(b));
        List<String> copy = new ArrayList<>(words);
        copy.sort(Comparator.comparing(Lambdas::lastLetter).thenComparing(Comparator.reverseOrder()));
        words.addAll(copy);
        return words;
    }

    static Character lastLetter(String s) {
        return s.charAt(s.length() - 1);
    }

    static int forEach() {
        int[] total = {0};
        List<Integer> values = List.of(4, 8, 15, 16, 23, 42);
        values.forEach(v -> total[0] += v);
        Lambdas scaler = new Lambdas(3);
        values.stream().map(scaler::scale).forEach(v -> total[0] += v);
        return total[0];
    }

    static String composed() {
        Function<Integer, Integer> inc = x -> x + 1;
        Function<Integer, Integer> dbl = x -> x * 2;
        Supplier<String> lazy = () -> "s" + inc.andThen(dbl).apply(5);
        IntBinaryOperator max = Math::max;
        Optional<String> o = Optional.of("opt").map(String::toUpperCase).filter(s -> s.startsWith("O"));
        return lazy.get() + max.applyAsInt(3, 9) + o.orElse("none") + inc.compose(dbl).apply(5);
    }

    static String collect() {
        return IntStream.range(0, 20).boxed().filter(i -> i % 3 != 0)
                .collect(Collectors.groupingBy(i -> i % 3, Collectors.summingInt(i -> i))).toString();
    }

    public static void main(String[] args) {
        System.out.println(streams() + " " + sorted() + " " + forEach() + " " + composed() + " " + collect());
    }
}
