package demo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Nested callbacks: the JDK calls back into the program, which calls the JDK again, which calls
 * back again (a comparator that runs a stream, computeIfAbsent inside forEach inside a
 * stream, a TreeMap whose comparator is a program class), and a callback that throws through
 * the JDK's frames to a handler in the program.
 */
public class Callbacks {
    static int digitSum(int v) {
        return String.valueOf(v).chars().map(c -> c - '0').sum();
    }

    /** Compares by digit sum, computed by a stream inside the comparator. */
    static final class ByDigitSum implements Comparator<Integer> {
        int comparisons;

        @Override
        public int compare(Integer a, Integer b) {
            comparisons++;
            int d = Integer.compare(digitSum(a), digitSum(b));
            return d != 0 ? d : Integer.compare(a, b);
        }
    }

    static Map<Integer, List<Integer>> groups(List<Integer> values) {
        Map<Integer, List<Integer>> byLength = new TreeMap<>(new ByDigitSum());
        values.stream().filter(v -> v > 3).forEach(v ->
                byLength.computeIfAbsent(v % 4, k -> new ArrayList<>(List.of(k * 100))).add(v));
        return byLength;
    }

    static String nestedFunctions() {
        Function<List<String>, String> outer = list -> list.stream()
                .map(s -> s.chars().mapToObj(c -> String.valueOf((char) (c + 1))).collect(Collectors.joining()))
                .sorted(Comparator.comparing(String::length).thenComparing(Function.identity()))
                .collect(Collectors.joining("|"));
        return outer.apply(List.of("hal", "ibm", "vms", "os"));
    }

    static int throwingCallback() {
        List<Integer> values = new ArrayList<>(List.of(5, 3, 9, 1, 7));
        try {
            values.sort((a, b) -> {
                if (a == 9 || b == 9) {
                    throw new IllegalStateException("nine");
                }
                return a - b;
            });
            return 0;
        } catch (IllegalStateException e) {
            return e.getMessage().length();
        }
    }

    public static void main(String[] args) {
        List<Integer> values = List.of(12, 7, 45, 3, 28, 91, 16, 5, 64, 30);
        List<Integer> sorted = new ArrayList<>(values);
        ByDigitSum cmp = new ByDigitSum();
        sorted.sort(cmp);
        System.out.println(sorted + " " + cmp.comparisons + " " + groups(values) + " " + nestedFunctions() + " "
                + throwingCallback());
    }
}
