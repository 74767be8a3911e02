package demo;

import java.util.Iterator;

/**
 * Inner (non-static) classes using the outer instance's private state, anonymous classes, local
 * classes capturing effectively final locals, and an inner class called back by the JDK (an
 * Iterable walked by String.join).
 */
public class Nested {
    private int base = 3;

    private int bump(int v) {
        return v + base;
    }

    class Inner {
        int twice;

        Inner(int v) {
            twice = bump(v) * 2;
        }

        int outerBase() {
            return base;
        }
    }

    interface Op {
        int apply(int v);
    }

    Op anonymous(int k) {
        return new Op() {
            @Override
            public int apply(int v) {
                return bump(v) * k;
            }
        };
    }

    static int local(int n) {
        final int offset = n * 2;
        class Counter {
            int c;

            void add(int v) {
                c += v + offset;
            }
        }
        Counter counter = new Counter();
        for (int i = 0; i < n; i++) {
            counter.add(i);
        }
        return counter.c;
    }

    /** Walked by the JDK: iterator(), hasNext() and next() are callbacks under String.join. */
    class Words implements Iterable<CharSequence> {
        final int count;

        Words(int count) {
            this.count = count;
        }

        @Override
        public Iterator<CharSequence> iterator() {
            return new Iterator<>() {
                int i;

                @Override
                public boolean hasNext() {
                    return i < count;
                }

                @Override
                public CharSequence next() {
                    return "w" + bump(i++);
                }
            };
        }
    }

    public static void main(String[] args) {
        Nested outer = new Nested();
        Inner inner = outer.new Inner(4);
        Op op = outer.anonymous(5);
        int sum = inner.twice + inner.outerBase() + op.apply(2) + local(6);
        String joined = String.join("-", outer.new Words(4));
        System.out.println(sum + " " + joined);
    }
}
