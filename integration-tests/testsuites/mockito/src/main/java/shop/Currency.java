package shop;

/** Static helpers, mocked statically by the tests. */
public final class Currency {
    private Currency() {}

    public static String format(long cents) {
        return String.format("%d.%02d", cents / 100, cents % 100);
    }

    public static long roundToFive(long cents) {
        return (cents + 2) / 5 * 5;
    }
}
