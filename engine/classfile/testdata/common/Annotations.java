import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.Map;

/**
 * Annotations of every kind: runtime visible and invisible, on parameters, type annotations on
 * locals, casts, instanceof, new, type arguments, bounds, wildcards, arrays, nested types,
 * receivers and throws; element values of every tag; annotation defaults.
 */
@Annotations.Visible(name = "class", number = 1)
@Annotations.Invisible
public class Annotations<@Annotations.TypeUse T extends @Annotations.TypeUse Comparable<T>> {

    @Retention(RetentionPolicy.RUNTIME)
    @interface Visible {
        String name() default "none";

        int number() default 0;

        byte b() default 1;

        char c() default 'c';

        short s() default 2;

        long l() default 3L;

        float f() default 4.5f;

        double d() default 6.5;

        boolean z() default true;

        Class<?> type() default Void.class;

        RetentionPolicy policy() default RetentionPolicy.CLASS;

        Invisible nested() default @Invisible(tag = "default");

        int[] numbers() default {1, 2, 3};

        String[] none() default {};
    }

    @Retention(RetentionPolicy.CLASS)
    @interface Invisible {
        String tag() default "";
    }

    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE_USE, ElementType.TYPE_PARAMETER})
    @interface TypeUse {
        int value() default 0;
    }

    @Target({ElementType.TYPE_USE, ElementType.TYPE_PARAMETER})
    @interface InvisibleTypeUse { }

    @Visible(name = "field", type = int[][].class, policy = RetentionPolicy.SOURCE, numbers = {}, nested = @Invisible(tag = "x"))
    @Deprecated
    @TypeUse(1) List<@TypeUse(2) ? extends @InvisibleTypeUse Number> field;

    Map<@TypeUse String, @TypeUse(3) List<@InvisibleTypeUse Integer> @TypeUse(4) []> nestedArrays;

    java.util.Map.@TypeUse Entry<String, String> nestedType;

    @Visible
    Annotations(@Visible(name = "param") @Invisible String name, @TypeUse int @InvisibleTypeUse [] counts) { }

    @Invisible(tag = "method")
    <@TypeUse(5) U extends @TypeUse(6) Number> @TypeUse(7) String method(
            @TypeUse(8) Annotations<T> this, @Visible int first, int second, @Invisible U third)
            throws @TypeUse(9) IllegalStateException, @InvisibleTypeUse RuntimeException {
        @TypeUse(10) Object local = first;
        @InvisibleTypeUse String text = (@TypeUse(11) String) (Object) "text";
        if (local instanceof @TypeUse(12) Integer) {
            List<@TypeUse(13) String> list = new java.util.@TypeUse(14) ArrayList<>();
            list.add(text);
            @TypeUse(15) int @TypeUse(16) [] @TypeUse(17) [] grid = new @TypeUse(18) int[2] @TypeUse(19) [3];
            return list.get(0) + grid.length + third;
        }
        try {
            return java.util.Collections.<@TypeUse(20) String>emptyList().toString();
        } catch (@TypeUse(21) IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
