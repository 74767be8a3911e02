/** A Thread subclass that overrides getId(): instrumented, the override itself asks for its thread's root. */
public class GetIdOverride {
    static class Worker extends Thread {
        @Override
        @SuppressWarnings("deprecation")
        public long getId() {
            return super.getId();
        }

        @Override
        public void run() {
            System.out.println("worker ran");
        }
    }

    public static void main(String[] args) throws Exception {
        Thread worker = new Worker();
        worker.start();
        worker.join();
        System.out.println("done");
    }
}
