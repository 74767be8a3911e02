import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * Lambdas capturing int, long, double and object locals, method references of every kind
 * (static, bound, unbound, constructor, array constructor), streams (boxed and primitive,
 * grouping into sorted maps), Optional, function composition, a recursive lambda, and a
 * serializable lambda sent through serialization ($deserializeLambda$).
 */
public class Lambdas {
    interface SerializableOp extends IntBinaryOperator, Serializable {}

    final String name;

    Lambdas(String name) {
        this.name = name;
    }

    String greet(String other) {
        return name + " greets " + other;
    }

    static int twice(int x) {
        return 2 * x;
    }

    static Function<Integer, Integer> fact;

    public static void main(String[] args) throws Exception {
        long base = 1L << 40;
        double scale = 0.5;
        int offset = 3;
        String tag = "t";
        LongSupplier captured = () -> base + (long) (scale * 10) + offset + tag.length();
        System.out.println("captured " + captured.getAsLong());

        Function<Integer, Integer> addOffset = x -> x + offset;
        Function<Integer, Integer> composed = addOffset.andThen(Lambdas::twice).compose(x -> x * x);
        System.out.println("composed " + composed.apply(5));

        Lambdas alice = new Lambdas("alice");
        Function<String, String> bound = alice::greet;
        BiFunction<Lambdas, String, String> unbound = Lambdas::greet;
        Function<String, Lambdas> ctor = Lambdas::new;
        Function<Integer, int[]> arrays = int[]::new;
        System.out.println(bound.apply("bob") + "; " + unbound.apply(ctor.apply("carol"), "dave") + "; "
                + arrays.apply(4).length);

        List<String> words = Arrays.asList("stream", "lambda", "method", "handle", "bootstrap", "invoke",
                "dynamic", "capture", "closure", "functional");
        Map<Integer, List<String>> byLength = words.stream()
                .filter(w -> !w.startsWith("c"))
                .map(String::toUpperCase)
                .collect(Collectors.groupingBy(String::length, TreeMap::new, Collectors.toList()));
        System.out.println("byLength " + byLength);
        System.out.println("joined " + words.stream().sorted().limit(4).collect(Collectors.joining(",", "[", "]")));
        System.out.println("sum " + IntStream.rangeClosed(1, 1000).filter(i -> i % 7 == 3).map(i -> i * offset).sum());
        System.out.println("longs " + LongStream.iterate(1, l -> l * 3).limit(30).reduce(0, (a, b) -> a ^ b));
        System.out.println("avg " + Stream.of(1.5, 2.5, 4.0).mapToDouble(Double::doubleValue).average().getAsDouble());
        Optional<String> longest = words.stream().reduce((a, b) -> a.length() >= b.length() ? a : b);
        System.out.println("longest " + longest.orElse("none") + " "
                + Optional.<String>empty().map(String::length).orElseGet(() -> -1));

        fact = n -> n <= 1 ? 1 : n * fact.apply(n - 1);
        System.out.println("fact " + fact.apply(12));

        List<Supplier<String>> suppliers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            final int k = i;
            final long big = base * k;
            final double half = k / 2.0;
            suppliers.add(() -> k + ":" + big + ":" + half);
        }
        StringBuilder sb = new StringBuilder();
        for (Supplier<String> s : suppliers) sb.append(s.get()).append(' ');
        System.out.println("suppliers " + sb);

        SerializableOp op = (a, b) -> a * 100 + b + offset;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(op);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            IntBinaryOperator back = (IntBinaryOperator) in.readObject();
            System.out.println("serialized lambda " + back.applyAsInt(4, 2));
        }

        Runnable nested = () -> {
            Function<Integer, Function<Integer, Integer>> curry = a -> b -> a * 10 + b;
            System.out.println("curried " + curry.apply(4).apply(2));
        };
        nested.run();
        int[] counter = {0};
        words.forEach(w -> {
            for (char c : w.toCharArray()) if (c == 'a') counter[0]++;
        });
        System.out.println("a count " + counter[0]);
    }
}
