import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.IntBinaryOperator;
import java.util.function.Supplier;

/**
 * Touches every family of JVM instructions that javac emits: constants, loads and stores of every
 * type (including `wide` forms past local 255), array loads and stores, stack shuffles, arithmetic,
 * conversions, comparisons and branches, both kinds of switch, field access, every invoke (virtual,
 * special, static, interface, dynamic), object and array creation, checkcast/instanceof, monitors
 * and athrow. javac emits no nop, swap, goto_w, jsr_w or (since 1.4.2) jsr/ret; see testdata/old/.
 */
public class AllInstructions implements Serializable, Comparable<AllInstructions> {
    static int counter;
    static final long BIG = 0x1234_5678_9ABC_DEF0L;
    static final double PI = 3.141592653589793;
    static final String GREETING = "constant value";

    int i;
    long l;
    float f;
    double d;
    Object o;
    int[] ints = new int[4];
    long[] longs = new long[4];

    // ---------------------------------------------------------------- constants
    Object constants() {
        Object[] all = {
            null, -1, 0, 1, 2, 3, 4, 5, 100, -100, 1000, 70000,
            0L, 1L, 2L, BIG,
            0f, 1f, 2f, 2.5f,
            0d, 1d, 2.5d,
            "string", String.class, int[].class, long.class,
        };
        return all;
    }

    // ---------------------------------------------------- loads, stores, iinc
    long primitives(int a, long b, float c, double e, Object g) {
        int x = a;
        long y = b;
        float z = c;
        double w = e;
        Object v = g;
        x++;
        x += 100;
        x -= 1000; // iinc with a constant that needs `wide`
        byte bt = (byte) x;
        short sh = (short) x;
        char ch = (char) x;
        boolean flag = x > 0;
        return x + y + (long) z + (long) w + (v == null ? 0 : 1) + bt + sh + ch + (flag ? 1 : 0);
    }

    // ------------------------------------------------------------------- wide
    long wideLocals(int a) {
        long w000 = 0, w001 = 1, w002 = 2, w003 = 3, w004 = 4, w005 = 5, w006 = 6, w007 = 7, w008 = 8, w009 = 9;
        long w010 = 10, w011 = 11, w012 = 12, w013 = 13, w014 = 14, w015 = 15, w016 = 16, w017 = 17, w018 = 18, w019 = 19;
        long w020 = 20, w021 = 21, w022 = 22, w023 = 23, w024 = 24, w025 = 25, w026 = 26, w027 = 27, w028 = 28, w029 = 29;
        long w030 = 30, w031 = 31, w032 = 32, w033 = 33, w034 = 34, w035 = 35, w036 = 36, w037 = 37, w038 = 38, w039 = 39;
        long w040 = 40, w041 = 41, w042 = 42, w043 = 43, w044 = 44, w045 = 45, w046 = 46, w047 = 47, w048 = 48, w049 = 49;
        long w050 = 50, w051 = 51, w052 = 52, w053 = 53, w054 = 54, w055 = 55, w056 = 56, w057 = 57, w058 = 58, w059 = 59;
        long w060 = 60, w061 = 61, w062 = 62, w063 = 63, w064 = 64, w065 = 65, w066 = 66, w067 = 67, w068 = 68, w069 = 69;
        long w070 = 70, w071 = 71, w072 = 72, w073 = 73, w074 = 74, w075 = 75, w076 = 76, w077 = 77, w078 = 78, w079 = 79;
        long w080 = 80, w081 = 81, w082 = 82, w083 = 83, w084 = 84, w085 = 85, w086 = 86, w087 = 87, w088 = 88, w089 = 89;
        long w090 = 90, w091 = 91, w092 = 92, w093 = 93, w094 = 94, w095 = 95, w096 = 96, w097 = 97, w098 = 98, w099 = 99;
        long w100 = 100, w101 = 101, w102 = 102, w103 = 103, w104 = 104, w105 = 105, w106 = 106, w107 = 107, w108 = 108, w109 = 109;
        long w110 = 110, w111 = 111, w112 = 112, w113 = 113, w114 = 114, w115 = 115, w116 = 116, w117 = 117, w118 = 118, w119 = 119;
        long w120 = 120, w121 = 121, w122 = 122, w123 = 123, w124 = 124, w125 = 125, w126 = 126, w127 = 127, w128 = 128, w129 = 129;
        int high = a;          // slot > 255: wide istore / iload
        high += 7;             // wide iinc
        long highLong = w129;  // wide lstore / lload
        float highFloat = a;   // wide fstore / fload
        double highDouble = a; // wide dstore / dload
        Object highRef = this; // wide astore / aload
        return w000 + w001 + w002 + w064 + w127 + w128 + high + highLong + (long) highFloat
                + (long) highDouble + (highRef == null ? 0 : 1);
    }

    // ----------------------------------------------------------------- arrays
    int arrays(int n) {
        boolean[] z = new boolean[n];
        byte[] b = new byte[n];
        char[] c = new char[n];
        short[] s = new short[n];
        int[] i = new int[n];
        long[] j = new long[n];
        float[] f = new float[n];
        double[] d = new double[n];
        String[] str = new String[n];
        int[][] grid = new int[n][n];
        long[][][] cube = new long[2][n][];
        z[0] = true;
        b[0] = 1;
        c[0] = 'c';
        s[0] = 2;
        i[0] = 3;
        j[0] = 4;
        f[0] = 5;
        d[0] = 6;
        str[0] = "s";
        grid[0][0] = 7;
        cube[0][0] = j;
        return (z[0] ? 1 : 0) + b[0] + c[0] + s[0] + i[0] + (int) j[0] + (int) f[0] + (int) d[0]
                + str[0].length() + grid[0][0] + cube.length + grid[0].length;
    }

    // ----------------------------------------------------------------- stack
    long stack(int[] a, long[] b) {
        int x = a[0] = 5;        // dup_x2
        long y = b[0] = 6;       // dup2_x2
        x += this.i = 7;         // dup_x1
        y += this.l = 8;         // dup2_x1
        i++;                     // dup; getfield; iadd; putfield
        l++;
        b[1]++;                  // dup2 of array ref and index
        primitives(1, 2, 3, 4, null); // pop2
        arrays(1);               // pop
        return x + y;
    }

    // ------------------------------------------------------------- arithmetic
    double arithmetic(int a, int b, long c, long e, float g, float h, double p, double q) {
        int ints = a + b - a * b / (b | 1) % 7 ^ (a & b) | (a << 3) | (a >> 2) | (a >>> 1) | -a;
        long longs = c + e - c * e / (e | 1) % 7 ^ (c & e) | (c << 3) | (c >> 2) | (c >>> 1) | -c;
        float floats = g + h - g * h / h % 7 - -g;
        double doubles = p + q - p * q / q % 7 - -p;
        return ints + longs + floats + doubles;
    }

    // ------------------------------------------------------------ conversions
    double conversions(int a, long b, float c, double e) {
        long il = a;
        float ifl = a;
        double id = a;
        int li = (int) b;
        float lf = b;
        double ld = b;
        int fi = (int) c;
        long fl = (long) c;
        double fd = c;
        int di = (int) e;
        long dl = (long) e;
        float df = (float) e;
        byte ib = (byte) a;
        char ic = (char) a;
        short is = (short) a;
        return il + ifl + id + li + lf + ld + fi + fl + fd + di + dl + df + ib + ic + is;
    }

    // ---------------------------------------------------- comparisons, branches
    int branches(int a, int b, long c, float g, double p, Object x, Object y) {
        int r = 0;
        if (a == 0) r++;
        if (a != 0) r++;
        if (a < 0) r++;
        if (a <= 0) r++;
        if (a > 0) r++;
        if (a >= 0) r++;
        if (a == b) r++;
        if (a != b) r++;
        if (a < b) r++;
        if (a <= b) r++;
        if (a > b) r++;
        if (a >= b) r++;
        if (c < 1L) r++;        // lcmp
        if (g < 1f) r++;        // fcmpg
        if (g > 1f) r++;        // fcmpl
        if (p < 1d) r++;        // dcmpg
        if (p > 1d) r++;        // dcmpl
        if (x == y) r++;
        if (x != y) r++;
        if (x == null) r++;
        if (x != null) r++;
        while (r < 100) {
            r += 3;
        }
        do {
            r--;
        } while (r > 90);
        for (int k = 0; k < 3; k++) {
            if (k == 1) continue;
            if (k == 2) break;
            r += k;
        }
        return r;
    }

    // --------------------------------------------------------------- switches
    int tableSwitch(int k) {
        switch (k) {
            case 0: return 10;
            case 1: return 11;
            case 2: return 12;
            case 3: return 13;
            case 5: return 15;
            default: return -1;
        }
    }

    int lookupSwitch(int k) {
        switch (k) {
            case -1000000: return 1;
            case 10: return 2;
            case 1000: return 3;
            case 1000000: return 4;
            default: return 0;
        }
    }

    int stringSwitch(String s) {
        switch (s) {
            case "alpha": return 1;
            case "beta": return 2;
            case "Aa": return 3; // same hashCode as "BB"
            case "BB": return 4;
            default: return 0;
        }
    }

    // ---------------------------------------------------------- fields, invokes
    static int staticCall(int a) {
        counter += a;          // getstatic, putstatic
        return counter;
    }

    private int privateCall() {
        return i;              // getfield
    }

    @Override
    public int compareTo(AllInstructions other) {
        return Integer.compare(i, other.i);
    }

    @Override
    public String toString() {
        return super.toString() + privateCall(); // invokespecial (super and, before nestmates, private)
    }

    int invokes(List<String> list, Runnable r) {
        r.run();                       // invokeinterface
        list.add("x");                 // invokeinterface with a result to pop
        Iterator<String> it = list.iterator();
        int n = staticCall(1) + privateCall() + hashCode(); // invokestatic, invokespecial/virtual
        while (it.hasNext()) {
            n += it.next().length();   // checkcast through generics
        }
        return n;
    }

    // --------------------------------------------------------- invokedynamic
    int lambdas(int base) {
        IntBinaryOperator add = (a, b) -> a + b + base; // capturing lambda
        Supplier<List<String>> make = ArrayList::new;    // constructor reference
        Runnable nothing = () -> { };                    // non-capturing lambda
        java.util.function.Function<Object, String> str = String::valueOf; // static method ref
        java.util.function.ToIntFunction<String> len = String::length;     // virtual method ref
        nothing.run();
        return add.applyAsInt(1, 2) + make.get().size() + str.apply(this).length() + len.applyAsInt("abc");
    }

    String concat(String s, int n, long j, char c, double d, Object o) {
        return "s=" + s + " n=" + n + " j=" + j + " c=" + c + " d=" + d + " o=" + o; // indy on 9+
    }

    // ----------------------------------------------- objects, types, monitors
    Object objects(Object x) {
        AllInstructions fresh = new AllInstructions();        // new, dup, invokespecial
        if (x instanceof String) {                            // instanceof
            return ((String) x).length();                     // checkcast
        }
        Object[] boxed = (Object[]) new Integer[] {1, 2};     // anewarray, checkcast to array
        return fresh.hashCode() + boxed.length;               // arraylength
    }

    int monitors(Object lock) {
        synchronized (lock) {      // monitorenter, monitorexit on both paths
            counter++;
            return counter;
        }
    }

    synchronized int synchronizedMethod() { // ACC_SYNCHRONIZED: no monitor instructions
        return i;
    }

    void athrow(int k) {
        if (k < 0) {
            throw new IllegalArgumentException("negative: " + k); // athrow
        }
    }

    // ---------------------------------------------------------------- returns
    void returnsVoid() { }
    int returnsInt() { return i; }
    long returnsLong() { return l; }
    float returnsFloat() { return f; }
    double returnsDouble() { return d; }
    Object returnsObject() { return o; }

    // -------------------------------------------------------------- ldc_w
    // The constants below are met last, so their pool indices pass 255 and javac loads them with ldc_w.
    Object[] lateConstants() {
        return new Object[] {"late-0", "late-1", "late-2", 123456789, 1.25f, "late-3", String[].class};
    }
}
