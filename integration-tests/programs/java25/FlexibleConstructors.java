package demo25;

/**
 * Java 25 flexible constructor bodies: loops and branches run before super(...), whose
 * superclass constructor may throw. What ran before the throw must be counted.
 */
public class FlexibleConstructors {
    static class Base {
        final long total;

        Base(long total) {
            if (total % 7 == 0) {
                throw new IllegalStateException("multiple of 7: " + total);
            }
            this.total = total;
        }
    }

    static class Summed extends Base {
        Summed(int n) {
            long sum = 0;
            for (int i = 0; i < n; i++) {
                sum += i % 3 == 0 ? i * 2 : i;
            }
            if (sum > 1000) {
                sum -= 1000;
            }
            super(sum);
        }
    }

    public static void main(String[] args) {
        int made = 0;
        int thrown = 0;
        for (int n = 1; n <= 120; n++) {
            try {
                made += new Summed(n).total > 0 ? 1 : 0;
            } catch (IllegalStateException e) {
                thrown++;
            }
        }
        System.out.println("made " + made + ", thrown " + thrown);
    }
}
