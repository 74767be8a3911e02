package demo;

/**
 * tableswitch and lookupswitch, fall-through, switches on strings (hash collisions), enums
 * (a synthetic class holding the switch map, initialised on first use) and switch expressions.
 */
public class Switches {
    enum Color { RED, GREEN, BLUE, BLACK }

    static int dense(int x) {
        switch (x) {
            case 0: return 10;
            case 1: return 11;
            case 2:
            case 3: return 12;
            case 4: x += 5; // fall through
            case 5: return x * 2;
            default: return -1;
        }
    }

    static int sparse(int x) {
        switch (x) {
            case -1000000: return 1;
            case 7: return 2;
            case 1 << 20: return 3;
            case Integer.MAX_VALUE: return 4;
            default: return 0;
        }
    }

    static int strings(String s) {
        switch (s) {
            case "Aa": return 1; // "Aa" and "BB" share a hash code
            case "BB": return 2;
            case "hello": return 3;
            default: return 0;
        }
    }

    static String colors(Color c) {
        switch (c) {
            case RED: return "warm";
            case GREEN:
            case BLUE: return "cold";
            default: return "none";
        }
    }

    static int expression(Object o, int k) {
        int base = switch (k % 4) {
            case 0 -> 1;
            case 1 -> {
                int t = k * 3;
                yield t + 1;
            }
            case 2, 3 -> -k;
            default -> throw new IllegalStateException();
        };
        return base + (o instanceof String s && s.length() > 2 ? s.length() : 0);
    }

    public static void main(String[] args) {
        int total = 0;
        for (int i = -1; i < 8; i++) {
            total += dense(i);
        }
        int[] keys = {-1000000, 7, 1 << 20, Integer.MAX_VALUE, 8};
        for (int k : keys) {
            total += sparse(k);
        }
        for (String s : new String[] {"Aa", "BB", "hello", "C#"}) {
            total += strings(s);
        }
        StringBuilder sb = new StringBuilder();
        for (Color c : Color.values()) {
            sb.append(colors(c)).append(',');
        }
        for (int k = 0; k < 8; k++) {
            total += expression(k % 2 == 0 ? "word" : Integer.valueOf(k), k);
        }
        System.out.println(total + " " + sb);
    }
}
