import java.util.ArrayList;
import java.util.List;

/**
 * Private static and private instance methods, the ones the stress scheme gives an extra
 * parameter (their call sites then pass it): many and wide (long, double) parameters, called in
 * loops, recursive, overloaded so that a shifted descriptor would collide with a sibling, called
 * through method references and lambdas (which must keep them as they are), varargs, and two
 * methods at the edge of the 255-slot limit (253 slots of parameters, static and instance).
 */
public class PrivateCalls {
    private long total;
    private final List<String> trace = new ArrayList<>();

    private static long mix(long a, double b, int c, long d, double e, float f, short g, byte h, char i,
            boolean j, long k, double l) {
        long r = a * 31 + (long) (b * 7) + c - d + (long) e + (long) (f * 3) + g + h + i + (j ? 1 : 0);
        return r ^ k ^ (long) l;
    }

    private double scale(double x, long times, double factor, int shift) {
        double r = x;
        for (long t = 0; t < times; t++) r = r * factor + (t >> shift);
        total += (long) r;
        return r;
    }

    private static int count(int n) {
        return n <= 0 ? 0 : 1 + count(n - 2) + count(n - 3);
    }

    private void note(String what, long value) {
        trace.add(what + "=" + value);
    }

    // Overloads: giving note(String) an int parameter would collide with note(String, int).
    private void note(String what) {
        trace.add(what);
    }

    private void note(String what, int n) {
        trace.add(what + "#" + n);
    }

    private static String join(String sep, Object... parts) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) sb.append(sep);
            sb.append(parts[i]);
        }
        return sb.toString();
    }

    private static int viaReference(int x) {
        return x * x + 1;
    }

    private static long widest(
            long p0, long p1, long p2, long p3, long p4, long p5, long p6, long p7, long p8, long p9,
            long p10, long p11, long p12, long p13, long p14, long p15, long p16, long p17, long p18,
            long p19, long p20, long p21, long p22, long p23, long p24, long p25, long p26, long p27,
            long p28, long p29, long p30, long p31, long p32, long p33, long p34, long p35, long p36,
            long p37, long p38, long p39, long p40, long p41, long p42, long p43, long p44, long p45,
            long p46, long p47, long p48, long p49, long p50, long p51, long p52, long p53, long p54,
            long p55, long p56, long p57, long p58, long p59, long p60, long p61, long p62, long p63,
            long p64, long p65, long p66, long p67, long p68, long p69, long p70, long p71, long p72,
            long p73, long p74, long p75, long p76, long p77, long p78, long p79, long p80, long p81,
            long p82, long p83, long p84, long p85, long p86, long p87, long p88, long p89, long p90,
            long p91, long p92, long p93, long p94, long p95, long p96, long p97, long p98, long p99,
            long p100, long p101, long p102, long p103, long p104, long p105, long p106, long p107,
            long p108, long p109, long p110, long p111, long p112, long p113, long p114, long p115,
            long p116, long p117, long p118, long p119, long p120, long p121, long p122, long p123,
            long p124, long p125, int last) {
        long sum = last;
        sum += p0 + p5 + p10 + p15 + p20 + p25 + p30 + p35 + p40 + p45 + p50 + p55 + p60 + p65 +
                p70 + p75 + p80 + p85 + p90 + p95 + p100 + p105 + p110 + p115 + p120 + p125;
        return sum * 3 + p125;
    }

    private long widestInstance(
            long p0, long p1, long p2, long p3, long p4, long p5, long p6, long p7, long p8, long p9,
            long p10, long p11, long p12, long p13, long p14, long p15, long p16, long p17, long p18,
            long p19, long p20, long p21, long p22, long p23, long p24, long p25, long p26, long p27,
            long p28, long p29, long p30, long p31, long p32, long p33, long p34, long p35, long p36,
            long p37, long p38, long p39, long p40, long p41, long p42, long p43, long p44, long p45,
            long p46, long p47, long p48, long p49, long p50, long p51, long p52, long p53, long p54,
            long p55, long p56, long p57, long p58, long p59, long p60, long p61, long p62, long p63,
            long p64, long p65, long p66, long p67, long p68, long p69, long p70, long p71, long p72,
            long p73, long p74, long p75, long p76, long p77, long p78, long p79, long p80, long p81,
            long p82, long p83, long p84, long p85, long p86, long p87, long p88, long p89, long p90,
            long p91, long p92, long p93, long p94, long p95, long p96, long p97, long p98, long p99,
            long p100, long p101, long p102, long p103, long p104, long p105, long p106, long p107,
            long p108, long p109, long p110, long p111, long p112, long p113, long p114, long p115,
            long p116, long p117, long p118, long p119, long p120, long p121, long p122, long p123,
            long p124, long p125, int last) {
        long r = widest(
                p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p18, p19,
                p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34, p35, p36, p37,
                p38, p39, p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54, p55,
                p56, p57, p58, p59, p60, p61, p62, p63, p64, p65, p66, p67, p68, p69, p70, p71, p72, p73,
                p74, p75, p76, p77, p78, p79, p80, p81, p82, p83, p84, p85, p86, p87, p88, p89, p90, p91,
                p92, p93, p94, p95, p96, p97, p98, p99, p100, p101, p102, p103, p104, p105, p106, p107,
                p108, p109, p110, p111, p112, p113, p114, p115, p116, p117, p118, p119, p120, p121, p122,
                p123, p124, p125, last);
        total += r;
        return r - p0 + p1;
    }

    private static long cycleA(long n, double acc) {
        return n <= 0 ? (long) acc : cycleB(n - 1, acc * 1.25);
    }

    private static long cycleB(long n, double acc) {
        return n <= 0 ? (long) -acc : cycleA(n - 1, acc + 3.5);
    }

    long run() {
        long acc = 0;
        for (int i = 0; i < 2000; i++) {
            acc += mix(i, i * 0.5, i % 7, acc >> 3, 1.0 / (i + 1), i * 0.25f, (short) i, (byte) i, (char) ('a' + i % 26),
                    i % 3 == 0, ~acc, Math.sqrt(i));
            if (i % 400 == 0) note("acc" + i, acc);
        }
        for (int i = 1; i < 6; i++) note("scale", (long) scale(1.5, i * 10, 1.01, i));
        note("count", count(25));
        note("overloaded");
        note("overloaded", 7);
        note(join("-", "a", 1, 2.5, 'c', 4L));
        java.util.function.IntUnaryOperator op = PrivateCalls::viaReference;
        int s = 0;
        for (int i = 0; i < 10; i++) s += op.applyAsInt(i);
        note("ref", s);
        Runnable r = () -> note("lambda", total % 1000);
        r.run();
        for (int k = 1; k <= 3; k++) {
            note("widest", widest(
                    0L * k, 1L * k, 2L * k, 3L * k, 4L * k, 5L * k, 6L * k, 7L * k, 8L * k, 9L * k, 10L * k,
                    11L * k, 12L * k, 13L * k, 14L * k, 15L * k, 16L * k, 17L * k, 18L * k, 19L * k, 20L * k,
                    21L * k, 22L * k, 23L * k, 24L * k, 25L * k, 26L * k, 27L * k, 28L * k, 29L * k, 30L * k,
                    31L * k, 32L * k, 33L * k, 34L * k, 35L * k, 36L * k, 37L * k, 38L * k, 39L * k, 40L * k,
                    41L * k, 42L * k, 43L * k, 44L * k, 45L * k, 46L * k, 47L * k, 48L * k, 49L * k, 50L * k,
                    51L * k, 52L * k, 53L * k, 54L * k, 55L * k, 56L * k, 57L * k, 58L * k, 59L * k, 60L * k,
                    61L * k, 62L * k, 63L * k, 64L * k, 65L * k, 66L * k, 67L * k, 68L * k, 69L * k, 70L * k,
                    71L * k, 72L * k, 73L * k, 74L * k, 75L * k, 76L * k, 77L * k, 78L * k, 79L * k, 80L * k,
                    81L * k, 82L * k, 83L * k, 84L * k, 85L * k, 86L * k, 87L * k, 88L * k, 89L * k, 90L * k,
                    91L * k, 92L * k, 93L * k, 94L * k, 95L * k, 96L * k, 97L * k, 98L * k, 99L * k,
                    100L * k, 101L * k, 102L * k, 103L * k, 104L * k, 105L * k, 106L * k, 107L * k, 108L * k,
                    109L * k, 110L * k, 111L * k, 112L * k, 113L * k, 114L * k, 115L * k, 116L * k, 117L * k,
                    118L * k, 119L * k, 120L * k, 121L * k, 122L * k, 123L * k, 124L * k, 125L * k, k));
            note("widestInstance", widestInstance(
                    0L * k, 1L * k, 2L * k, 3L * k, 4L * k, 5L * k, 6L * k, 7L * k, 8L * k, 9L * k, 10L * k,
                    11L * k, 12L * k, 13L * k, 14L * k, 15L * k, 16L * k, 17L * k, 18L * k, 19L * k, 20L * k,
                    21L * k, 22L * k, 23L * k, 24L * k, 25L * k, 26L * k, 27L * k, 28L * k, 29L * k, 30L * k,
                    31L * k, 32L * k, 33L * k, 34L * k, 35L * k, 36L * k, 37L * k, 38L * k, 39L * k, 40L * k,
                    41L * k, 42L * k, 43L * k, 44L * k, 45L * k, 46L * k, 47L * k, 48L * k, 49L * k, 50L * k,
                    51L * k, 52L * k, 53L * k, 54L * k, 55L * k, 56L * k, 57L * k, 58L * k, 59L * k, 60L * k,
                    61L * k, 62L * k, 63L * k, 64L * k, 65L * k, 66L * k, 67L * k, 68L * k, 69L * k, 70L * k,
                    71L * k, 72L * k, 73L * k, 74L * k, 75L * k, 76L * k, 77L * k, 78L * k, 79L * k, 80L * k,
                    81L * k, 82L * k, 83L * k, 84L * k, 85L * k, 86L * k, 87L * k, 88L * k, 89L * k, 90L * k,
                    91L * k, 92L * k, 93L * k, 94L * k, 95L * k, 96L * k, 97L * k, 98L * k, 99L * k,
                    100L * k, 101L * k, 102L * k, 103L * k, 104L * k, 105L * k, 106L * k, 107L * k, 108L * k,
                    109L * k, 110L * k, 111L * k, 112L * k, 113L * k, 114L * k, 115L * k, 116L * k, 117L * k,
                    118L * k, 119L * k, 120L * k, 121L * k, 122L * k, 123L * k, 124L * k, 125L * k, k));
        }
        note("cycle", cycleA(9, 1) + cycleB(10, 2));
        return acc;
    }

    public static void main(String[] args) {
        PrivateCalls p = new PrivateCalls();
        System.out.println("run " + p.run() + " total " + p.total);
        for (String t : p.trace) System.out.println(t);
    }
}
