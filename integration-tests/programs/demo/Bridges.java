package demo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/**
 * Bridge methods: Comparable<Version>.compareTo(Object) bridges to compareTo(Version) and the JDK
 * sort calls the bridge; a covariant override; a generic interface implemented for a concrete
 * type; varargs and overloads that differ only in parameter types.
 */
public class Bridges {
    static final class Version implements Comparable<Version> {
        final int major;
        final int minor;

        Version(int major, int minor) {
            this.major = major;
            this.minor = minor;
        }

        @Override
        public int compareTo(Version o) {
            return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
        }

        @Override
        public String toString() {
            return major + "." + minor;
        }
    }

    static class Animal {
        Animal self() {
            return this;
        }

        String sound() {
            return "...";
        }
    }

    static final class Dog extends Animal {
        @Override
        Dog self() {
            return this;
        }

        @Override
        String sound() {
            return "woof";
        }
    }

    interface Transformer<T> {
        T transform(T in);
    }

    static final class Upper implements Transformer<String> {
        @Override
        public String transform(String in) {
            return in.toUpperCase();
        }
    }

    static <T> T twice(Transformer<T> t, T v) {
        return t.transform(t.transform(v));
    }

    static int sum(int... values) {
        int s = 0;
        for (int v : values) {
            s += v;
        }
        return s;
    }

    static String kind(Object o) {
        return "object";
    }

    static String kind(String s) {
        return "string";
    }

    static String kind(Integer i) {
        return "integer";
    }

    public static void main(String[] args) {
        List<Version> versions = new ArrayList<>();
        int[][] raw = {{1, 10}, {1, 2}, {0, 9}, {2, 0}, {1, 2}, {0, 10}};
        for (int[] r : raw) {
            versions.add(new Version(r[0], r[1]));
        }
        Collections.sort(versions);
        Animal a = new Dog();
        Supplier<Animal> s = a::self;
        System.out.println(versions + " " + s.get().sound() + " " + twice(new Upper(), "ab") + " " + sum() + sum(1)
                + sum(1, 2, 3) + " " + kind("x") + kind(1) + kind((Object) "y") + " " + Collections.max(versions));
    }
}
