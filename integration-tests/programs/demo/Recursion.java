package demo;

/**
 * Direct and mutual recursion. HotSpot does not post a SingleStep event at the location of the
 * previous one, and a recursive call that returns lands on the caller's `return`, which is where
 * the callee ended: the oracle must add those steps back (see oracle/README.md).
 */
public class Recursion {
    // 0 iload_0, 1 ifle, 4 iload_0, 5 iconst_1, 6 isub, 7 invokestatic, 10 return
    static void countDown(int n) {
        if (n > 0) {
            countDown(n - 1);
        }
    }

    static int factorial(int n) {
        return n <= 1 ? 1 : n * factorial(n - 1);
    }

    static int fibonacci(int n) {
        if (n < 2) {
            return n;
        }
        return fibonacci(n - 1) + fibonacci(n - 2);
    }

    static boolean isEven(int n) {
        return n == 0 || isOdd(n - 1);
    }

    static boolean isOdd(int n) {
        return n != 0 && isEven(n - 1);
    }

    /** Recursion through an instance method and a field: a tree of nodes summed depth first. */
    static final class Tree {
        final int value;
        final Tree left;
        final Tree right;

        Tree(int value, Tree left, Tree right) {
            this.value = value;
            this.left = left;
            this.right = right;
        }

        static Tree build(int depth, int value) {
            if (depth == 0) {
                return null;
            }
            return new Tree(value, build(depth - 1, 2 * value), build(depth - 1, 2 * value + 1));
        }

        int sum() {
            int s = value;
            if (left != null) {
                s += left.sum();
            }
            if (right != null) {
                s += right.sum();
            }
            return s;
        }
    }

    // expect: demo.Recursion.main([Ljava/lang/String;)V;demo.Recursion.countDown(I)V calls=1 bytecodes=7
    // expect: demo.Recursion.main([Ljava/lang/String;)V;demo.Recursion.countDown(I)V;demo.Recursion.countDown(I)V;demo.Recursion.countDown(I)V;demo.Recursion.countDown(I)V calls=1 bytecodes=3
    // expect: demo.Recursion.main([Ljava/lang/String;)V;demo.Recursion.factorial(I)I calls=1 bytecodes=10
    // expect: demo.Recursion.main([Ljava/lang/String;)V;demo.Recursion.factorial(I)I;demo.Recursion.factorial(I)I;demo.Recursion.factorial(I)I;demo.Recursion.factorial(I)I;demo.Recursion.factorial(I)I;demo.Recursion.factorial(I)I calls=1 bytecodes=6
    public static void main(String[] args) {
        countDown(3);
        int f = factorial(6);
        int fib = fibonacci(12);
        boolean even = isEven(15);
        boolean odd = isOdd(10);
        Tree tree = Tree.build(5, 1);
        System.out.println("factorial(6) = " + f + ", fibonacci(12) = " + fib + ", isEven(15) = " + even
                + ", isOdd(10) = " + odd + ", tree sum = " + tree.sum());
    }
}
