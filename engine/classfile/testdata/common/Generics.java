import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** Generic signatures on the class, fields, methods, locals and exceptions; bridge methods. */
public class Generics<K extends Comparable<? super K> & Serializable, V> implements Callable<Map<K, List<V>>> {
    Map<K, List<V>> map;
    List<? extends Number> upper;
    List<? super Integer> lower;
    List<?>[] arrayOfWildcards;
    V[] values;

    @Override
    public Map<K, List<V>> call() {
        return map;
    }

    <T extends Collection<? extends V>> int addAll(T items, List<? super V> sink) {
        List<V> copy = new ArrayList<>(items);
        sink.addAll(copy);
        return copy.size();
    }

    static <E extends Exception> void sneaky(Exception e) throws E {
        @SuppressWarnings("unchecked")
        E cast = (E) e;
        throw cast;
    }

    static <A, B extends A> A widen(B b) {
        return b;
    }

    /** A subclass that narrows a generic method: javac adds a bridge method. */
    static class Named implements Comparable<Named>, Serializable {
        String name;

        @Override
        public int compareTo(Named o) {
            return name.compareTo(o.name);
        }
    }

    static class Inner<X> extends ArrayList<X> {
        class Deeper<Y extends X> {
            Map<X, Y> pairs;
        }
    }
}
