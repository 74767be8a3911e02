package demo;

import java.util.ArrayList;
import java.util.List;

/**
 * Static initialisers, started in every way the JVM has: getstatic, putstatic, invokestatic,
 * new, a subclass's initialisation, an interface field, Class.forName and reflection, and one
 * initialiser that starts another. Each <clinit> is a context directly under the thread's root.
 * HotSpot hides the bytecodes of an initialiser that runs inside constant-pool resolution
 * (getstatic, putstatic, invokestatic); the oracle initialises such classes just before the
 * bytecode runs, so the counts below are exact.
 */
public class StaticInit {
    static final List<String> ORDER = new ArrayList<>();

    static void record(String what) {
        ORDER.add(what);
    }

    static class ByGet {
        static int value;

        static {
            int s = 0;
            for (int i = 0; i < 3; i++) {
                s += i;
            }
            value = s;
        }
    }

    static class ByPut {
        static int value;

        static {
            record("ByPut");
        }
    }

    static class ByCall {
        static {
            record("ByCall");
        }

        static int twice(int x) {
            return 2 * x;
        }
    }

    static class ByNew {
        static {
            record("ByNew");
        }

        final int v = 5;
    }

    static class Parent {
        static {
            record("Parent");
        }
    }

    static class Child extends Parent {
        static int value = ByCall.twice(21);
    }

    interface Holder {
        List<String> NAMES = names(); // not a constant: the interface gets a <clinit>
    }

    static List<String> names() {
        List<String> l = new ArrayList<>();
        l.add("x");
        l.add("y");
        return l;
    }

    static class ByForName {
        static {
            record("ByForName");
        }
    }

    static class ByReflection {
        static {
            record("ByReflection");
        }

        public static int answer() {
            return 42;
        }
    }

    static class Chain {
        static final int FIRST = Later.base() + 1; // starts Later's initialisation from here
    }

    static class Later {
        static int seed;

        static {
            seed = 40;
        }

        static int base() {
            return seed;
        }
    }

    // expect: demo.StaticInit$ByGet.<clinit>()V calls=1 bytecodes=37
    // expect: demo.StaticInit$Later.<clinit>()V calls=1 bytecodes=3
    // expect: demo.StaticInit$Chain.<clinit>()V;demo.StaticInit$Later.base()I calls=1 bytecodes=2
    public static void main(String[] args) throws Exception {
        int sum = ByGet.value;
        ByPut.value = 3;
        sum += ByCall.twice(4);
        sum += new ByNew().v;
        sum += Child.value;
        sum += Holder.NAMES.size();
        Class.forName("demo.StaticInit$ByForName");
        Class<?> c = Class.forName("demo.StaticInit$ByReflection", false, StaticInit.class.getClassLoader());
        sum += (Integer) c.getMethod("answer").invoke(null);
        sum += Chain.FIRST;
        System.out.println(sum + " " + ORDER);
    }
}
