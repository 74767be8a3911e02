/**
 * Switches: dense (tableswitch) and sparse (lookupswitch) int switches, negative and extreme keys,
 * fall-through, char switches, string switches with hash collisions ("Aa" and "BB"), enum
 * switches (a synthetic $SwitchMap class), switches inside loops with labelled break and continue,
 * and nested switches.
 */
public class Switches {
    enum Color { RED, GREEN, BLUE, BLACK }

    static String dense(int x) {
        switch (x) {
            case 0: return "zero";
            case 1: return "one";
            case 2:
            case 3: return "two-or-three";
            case 4: return "four";
            case 5: return "five";
            case 6: return "six";
            case 7: return "seven";
            default: return "many";
        }
    }

    static int sparse(int x) {
        switch (x) {
            case Integer.MIN_VALUE: return -1;
            case -1000: return 1;
            case 7: return 2;
            case 100: return 3;
            case 65536: return 4;
            case 1 << 20: return 5;
            case Integer.MAX_VALUE: return 6;
            default: return 0;
        }
    }

    static int fallThrough(int x) {
        int r = 0;
        switch (x) {
            case 1:
                r += 1;
            case 2:
                r += 10;
            case 3:
                r += 100;
                break;
            case 4:
                r += 1000;
            default:
                r += 10000;
        }
        return r;
    }

    static String chars(char c) {
        switch (c) {
            case 'a': case 'e': case 'i': case 'o': case 'u': return "vowel";
            case ' ': return "space";
            case '\u00e9': return "e-acute";
            default: return Character.isDigit(c) ? "digit" : "other";
        }
    }

    static int strings(String s) {
        switch (s) {
            case "Aa": return 1;
            case "BB": return 2; // same hashCode as "Aa"
            case "": return 3;
            case "hello": return 4;
            case "AaAa": return 5;
            case "BBBB": return 6; // same hashCode as "AaAa"
            case "AaBB": return 7;
            default: return s.length() * 100;
        }
    }

    static String colors(Color c) {
        switch (c) {
            case RED: return "warm";
            case BLUE: return "cold";
            case GREEN: return "fresh";
            default: return "none";
        }
    }

    static int inLoop(int[] values) {
        int sum = 0;
        loop:
        for (int i = 0; i < values.length; i++) {
            switch (values[i] % 5) {
                case 0:
                    continue;
                case 1:
                    sum += 1;
                    break;
                case 2:
                    sum += values[i];
                    continue loop;
                case 3:
                    if (values[i] > 40) break loop;
                    sum *= 2;
                    break;
                default:
                    switch (values[i] % 3) {
                        case 0: sum -= 3; break;
                        case 1: sum += 7; // fall through
                        default: sum ^= 5;
                    }
            }
            sum += 1000;
        }
        return sum;
    }

    static long longKeys(long l) {
        switch ((int) (l >>> 32)) {
            case 0: return l & 0xffff;
            case 1: return -l;
            default: return l >> 3;
        }
    }

    public static void main(String[] args) {
        StringBuilder sb = new StringBuilder();
        for (int i = -2; i < 10; i++) sb.append(dense(i)).append(' ');
        System.out.println("dense " + sb);
        int[] keys = {Integer.MIN_VALUE, -1000, -999, 7, 8, 100, 65536, 1 << 20, Integer.MAX_VALUE, 0};
        sb.setLength(0);
        for (int k : keys) sb.append(sparse(k));
        System.out.println("sparse " + sb);
        for (int i = 0; i <= 5; i++) System.out.print(fallThrough(i) + " ");
        System.out.println();
        for (char c : "a1 x\u00e9u".toCharArray()) System.out.print(chars(c) + " ");
        System.out.println();
        String[] strings = {"Aa", "BB", "", "hello", "AaAa", "BBBB", "AaBB", "BBAa", "xyz"};
        for (String s : strings) System.out.print(strings(s) + " ");
        System.out.println();
        for (Color c : Color.values()) System.out.print(colors(c) + " ");
        System.out.println();
        int[] values = new int[60];
        for (int i = 0; i < values.length; i++) values[i] = (i * 37 + 11) % 97;
        System.out.println("inLoop " + inLoop(values));
        System.out.println("longKeys " + longKeys(0x1234L) + " " + longKeys(0x100000005L) + " " + longKeys(-1L));
    }
}
