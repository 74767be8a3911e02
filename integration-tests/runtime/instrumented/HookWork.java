/** A shutdown hook that calls an instrumented method 3,000 times, while main ends at once. */
public class HookWork {
    static long sink;

    static void work(int i) {
        sink += i;
    }

    static void hook() {
        for (int i = 0; i < 3_000; i++) {
            work(i);
        }
    }

    public static void main(String[] args) {
        Runtime.getRuntime().addShutdownHook(new Thread(HookWork::hook));
        System.out.println("main done");
    }
}
