import java.util.Comparator;

/**
 * Nested classes of every kind: static nested, inner, inner of inner, local, anonymous, nested
 * interface and enum; private members used across them (synthetic accessors before Java 11,
 * NestHost/NestMembers after).
 */
public class Nested {
    private int secret = 42;

    private static String hidden() {
        return "hidden";
    }

    static class StaticNested {
        private int value;

        int peek(Nested outer) {
            return outer.secret + value;
        }
    }

    class Inner {
        int read() {
            return secret;
        }

        class Deeper {
            int readBoth() {
                return secret + read();
            }
        }
    }

    interface Visitor<R> {
        R visit(Nested n);
    }

    enum Mode { ON, OFF }

    int local(final int bias) {
        class Local implements Visitor<Integer> {
            @Override
            public Integer visit(Nested n) {
                return n.secret + bias;
            }
        }
        return new Local().visit(this);
    }

    Comparator<String> anonymous() {
        return new Comparator<String>() {
            @Override
            public int compare(String a, String b) {
                return a.length() - b.length() + secret;
            }
        };
    }

    int all() {
        StaticNested sn = new StaticNested();
        sn.value = 1;
        Inner in = new Inner();
        Inner.Deeper deeper = in.new Deeper();
        return sn.peek(this) + deeper.readBoth() + local(1) + hidden().length() + Mode.ON.ordinal();
    }
}
