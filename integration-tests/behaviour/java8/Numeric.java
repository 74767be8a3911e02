/**
 * long and double locals and arithmetic in loops (two-slot locals around the added counter),
 * int and long overflow, shifts, float and double corner cases, conversions, and recursion:
 * direct, mutual, with long and double parameters, and deep enough to matter.
 */
public class Numeric {
    static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static int ackermann(int m, int n) {
        if (m == 0) return n + 1;
        if (n == 0) return ackermann(m - 1, 1);
        return ackermann(m - 1, ackermann(m, n - 1));
    }

    static boolean isEven(long n) {
        return n == 0 || isOdd(n - 1);
    }

    static boolean isOdd(long n) {
        return n != 0 && isEven(n - 1);
    }

    static double power(double base, int exp) {
        if (exp == 0) return 1;
        double half = power(base, exp / 2);
        return exp % 2 == 0 ? half * half : half * half * base;
    }

    static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    static long sumDigits(long n, long acc, double weight) {
        if (n == 0) return acc + (long) weight;
        return sumDigits(n / 10, acc + n % 10, weight * 1.5);
    }

    static long lcg(int rounds) {
        long x = 12345;
        double d = 0.5;
        float f = 1.25f;
        long mix = 0;
        for (int i = 0; i < rounds; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            d = d * 1.000001 + (x >>> 60) / 16.0;
            f = f * 0.999f + (i & 7);
            long t = x ^ (x >>> 17) ^ (x << 9);
            mix += t >> (i & 63);
            if (d > 1e6) d -= 1e6;
        }
        return mix ^ Double.doubleToLongBits(d) ^ Float.floatToIntBits(f);
    }

    static String corners() {
        StringBuilder sb = new StringBuilder();
        sb.append(Integer.MAX_VALUE + 1).append(' ');
        sb.append(Long.MIN_VALUE - 1).append(' ');
        sb.append(Integer.MIN_VALUE / -1).append(' ');
        sb.append(-7 / 2).append(' ').append(-7 % 2).append(' ');
        sb.append(Math.floorMod(-7, 2)).append(' ');
        sb.append(1 << 33).append(' ').append(1L << 65).append(' ').append(-1 >>> 28).append(' ');
        sb.append(0.1 + 0.2).append(' ').append(1.0 / 0).append(' ').append(0.0 / 0).append(' ');
        sb.append(-0.0 == 0.0).append(' ').append(Double.compare(-0.0, 0.0)).append(' ');
        sb.append((int) Double.NaN).append(' ').append((long) 1e30).append(' ').append((int) -1e30f).append(' ');
        sb.append((byte) 200).append(' ').append((short) 70000).append(' ').append((char) 65601).append(' ');
        sb.append(Float.MIN_VALUE / 2).append(' ').append((float) 1e40).append(' ');
        sb.append(Double.NaN != Double.NaN).append(' ').append(Long.toHexString(Double.doubleToRawLongBits(-2.5)));
        return sb.toString();
    }

    static double integrate(double from, double to, int steps) {
        double h = (to - from) / steps;
        double sum = 0;
        long evaluations = 0;
        for (int i = 0; i <= steps; i++) {
            double x = from + i * h;
            double y = x * x * Math.exp(-x);
            sum += (i == 0 || i == steps) ? y / 2 : y;
            evaluations++;
        }
        return sum * h + evaluations * 1e-12;
    }

    static long matrix(int n) {
        long[][] a = new long[n][n];
        long[][] b = new long[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i][j] = i * 3L - j;
                b[i][j] = (i + j) % 5;
            }
        }
        long trace = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                long c = 0;
                for (int k = 0; k < n; k++) c += a[i][k] * b[k][j];
                if (i == j) trace += c;
            }
        }
        return trace;
    }

    public static void main(String[] args) {
        for (int i = 0; i <= 25; i += 5) System.out.print(fib(i) + " ");
        System.out.println();
        System.out.println("ackermann " + ackermann(2, 3) + " " + ackermann(3, 3));
        System.out.println("even/odd " + isEven(1000) + " " + isOdd(777) + " " + isEven(3));
        System.out.println("power " + power(1.0001, 10000) + " " + power(-2, 31));
        System.out.println("gcd " + gcd(1071, 462) + " " + gcd(Long.MAX_VALUE, 1L << 40));
        System.out.println("sumDigits " + sumDigits(9876543210123L, 0, 1.0));
        System.out.println("lcg " + lcg(100000));
        System.out.println("corners " + corners());
        System.out.println("integrate " + integrate(0, 10, 100000));
        System.out.println("matrix " + matrix(40));
        int depth = 0;
        try {
            depth = deep(0);
        } catch (StackOverflowError e) {
            depth = -1;
        }
        System.out.println("deep " + depth);
    }

    static int deep(int n) {
        return n >= 3000 ? n : deep(n + 1);
    }
}
