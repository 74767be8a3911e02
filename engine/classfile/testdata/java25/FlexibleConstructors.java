import module java.base;

/** Statements before super(...) (JEP 513) and a module import declaration (JEP 511). */
public class FlexibleConstructors extends ArrayList<String> {
    private final int limit;

    FlexibleConstructors(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit " + limit);
        }
        this.limit = limit; // assigning a field before super() is allowed now
        super(Math.max(limit, 10));
    }

    FlexibleConstructors(List<String> items) {
        var copy = List.copyOf(items);
        this(copy.size());
        addAll(copy);
    }

    int limit() {
        return limit;
    }
}
