import java.util.function.IntSupplier;

/** A plugin with a static initializer, a constructor and a method with a loop and calls. */
public class Plugin implements IntSupplier {
    private static final int[] TABLE = new int[16];

    static {
        for (int i = 0; i < TABLE.length; i++) {
            TABLE[i] = i * i;
        }
    }

    private int square(int i) {
        return TABLE[i];
    }

    @Override
    public int getAsInt() {
        int sum = 0;
        for (int i = 0; i < TABLE.length; i++) {
            sum += square(i);
        }
        return sum;
    }
}
