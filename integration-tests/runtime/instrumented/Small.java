/** A few calls: enough for a profile with something in it. */
public class Small {
    static int twice(int x) {
        return 2 * x;
    }

    public static void main(String[] args) {
        int sum = 0;
        for (int i = 0; i < 10; i++) {
            sum += twice(i);
        }
        System.out.println("sum " + sum);
    }
}
