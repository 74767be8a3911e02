package isolated;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Loops, exceptions, constructors, a static initializer and leaf methods, run where JP's runtime
 * may not be visible: in a class loader of its own, or in a JVM started without the runtime.
 */
public class Work extends Base implements Greeter {
    static final List<String> LOG = new ArrayList<>();
    static int counter;

    static {
        for (int i = 0; i < 3; i++) {
            counter += i;
        }
    }

    final int n;

    Work(int n) {
        super(n * 2);
        this.n = n;
    }

    static Base early() {
        return new Work(7);
    }

    @Override
    int size() {
        return n;
    }

    @Override
    public String name() {
        return "work" + n;
    }

    static int leaf(int x) {
        return x > 3 ? x * 2 : x + 1;
    }

    static long loop(int k) {
        long sum = 0;
        for (int i = 0; i < k; i++) {
            sum += leaf(i);
        }
        return sum;
    }

    static String risky(int x) {
        try {
            if (x % 2 == 0) {
                throw new IllegalStateException("even " + x);
            }
            return "odd " + x;
        } catch (IllegalStateException e) {
            return "caught " + e.getMessage();
        } finally {
            LOG.add("risky " + x);
        }
    }

    void thrower() {
        if (n < 0) {
            throw new IllegalArgumentException("negative " + n);
        }
    }

    public static String run() {
        StringBuilder out = new StringBuilder();
        out.append("early ").append(EARLY.size()).append(' ').append(EARLY.base).append('\n');
        out.append("counter ").append(counter).append('\n');
        out.append("loop ").append(loop(1000)).append('\n');
        for (int i = 0; i < 3; i++) {
            out.append(risky(i)).append('\n');
        }
        out.append(new Work(5).greet()).append('\n');
        out.append(Greeter.of("lambda").greet()).append('\n');
        try {
            new Work(-1).thrower();
        } catch (IllegalArgumentException e) {
            out.append("thrown ").append(e.getMessage()).append('\n');
        }
        out.append(LOG).append('\n');
        out.append("fields ").append(fieldNames(Work.class)).append('\n');
        return out.toString();
    }

    /**
     * The names of the class's own fields, as frameworks that reflect on them list them: which
     * resolves the types of all its fields, the one JP adds too.
     */
    static List<String> fieldNames(Class<?> type) {
        List<String> names = new ArrayList<>();
        for (Field field : type.getDeclaredFields()) {
            if (!field.isSynthetic()) {
                names.add(field.getName());
            }
        }
        Collections.sort(names);
        return names;
    }

    public static void main(String[] args) {
        System.out.print(run());
    }
}
