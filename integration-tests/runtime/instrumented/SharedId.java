/** Two threads that claim the same id each call work() 2,000,000 times: 4,000,000 calls in all. */
public class SharedId {
    static final int CALLS = 2_000_000;
    static long sink;

    static int work(int i) {
        return i & 7;
    }

    static void loop() {
        long sum = 0;
        for (int i = 0; i < CALLS; i++) {
            sum += work(i);
        }
        synchronized (SharedId.class) {
            sink += sum;
        }
    }

    public static void main(String[] args) throws Exception {
        Thread a = new SameIdThread(SharedId::loop);
        Thread b = new SameIdThread(SharedId::loop);
        a.start();
        b.start();
        a.join();
        b.join();
        System.out.println("sum " + sink);
    }
}
