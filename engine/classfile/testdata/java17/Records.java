import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;

/** Records: components with signatures and annotations, a compact constructor, a nested record. */
public record Records<T extends Comparable<T>>(
        @Records.Component @Records.TypeUse int id, List<@Records.TypeUse T> items, String... tags) {

    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
    @interface Component { }

    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE_USE)
    @interface TypeUse { }

    public Records {
        if (id < 0) {
            throw new IllegalArgumentException("id " + id);
        }
        items = List.copyOf(items);
    }

    record Point(double x, double y) {
        static final Point ORIGIN = new Point(0, 0);

        double distance() {
            return Math.sqrt(x * x + y * y);
        }
    }

    record Empty() { }

    int size() {
        return items.size() + tags.length;
    }
}
