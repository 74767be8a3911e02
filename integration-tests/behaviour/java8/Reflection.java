import java.io.Serializable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * What reflection shows of interfaces, their implementors and classes: an interface and every class
 * implementing it must show the same fields and methods as before instrumentation, whatever the
 * class-file version; a class shows the same public members and the same non-synthetic declared
 * ones. Code that reads an interface's constants by reflection (and casts them) must keep working.
 */
public class Reflection {
    interface Limits {
        int MAX = 10;
        List<String> NAMES = Collections.unmodifiableList(Arrays.asList("a", "b"));

        int limit();

        default int twice() {
            return 2 * limit();
        }

        static int sum(int a, int b) {
            return a + b;
        }
    }

    interface Marker extends Limits {
        String TAG = "marker";
    }

    static class Impl implements Marker, Serializable {
        public int visible = 1;
        private int hidden = 2;

        @Override
        public int limit() {
            return MAX + hidden;
        }
    }

    static class Plain {
        static int counter;

        int next() {
            return ++counter;
        }
    }

    static String names(Member[] members, boolean skipSynthetic) {
        List<String> names = new ArrayList<>();
        for (Member member : members) {
            if (!(skipSynthetic && member.isSynthetic())) {
                names.add(member.getName());
            }
        }
        Collections.sort(names);
        return names.toString();
    }

    static void show(Class<?> type) {
        boolean isInterface = type.isInterface();
        System.out.println(type.getSimpleName() + " fields " + names(type.getFields(), false));
        System.out.println(type.getSimpleName() + " methods " + names(type.getMethods(), false));
        // An interface must show no addition at all; a class may add synthetic members only.
        System.out.println(type.getSimpleName() + " declared fields " + names(type.getDeclaredFields(), !isInterface));
        System.out.println(type.getSimpleName() + " declared methods " + names(type.getDeclaredMethods(), !isInterface));
    }

    public static void main(String[] args) throws Exception {
        for (Class<?> type : new Class<?>[] {Limits.class, Marker.class, Impl.class, Plain.class}) {
            show(type);
        }
        // Reads every public constant of an implementor, casting by the field's declared type.
        for (Field field : sorted(Impl.class.getFields())) {
            if (field.getType() == List.class) {
                List<?> list = (List<?>) field.get(null);
                System.out.println(field.getName() + " = list of " + list.size());
            } else if (field.getType() == int.class && java.lang.reflect.Modifier.isStatic(field.getModifiers())) {
                System.out.println(field.getName() + " = " + field.getInt(null));
            } else if (field.getType() == String.class) {
                System.out.println(field.getName() + " = " + field.get(null));
            } else {
                System.out.println(field.getName() + " = instance field " + field.getType());
            }
        }
        Impl impl = new Impl();
        Method twice = Limits.class.getMethod("twice");
        System.out.println("twice = " + twice.invoke(impl) + ", sum = " + Limits.sum(3, 4) + ", next = " + new Plain().next());
    }

    static Field[] sorted(Field[] fields) {
        Field[] copy = fields.clone();
        Arrays.sort(copy, (a, b) -> a.getName().compareTo(b.getName()));
        return copy;
    }
}
