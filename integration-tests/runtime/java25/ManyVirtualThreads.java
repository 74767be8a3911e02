import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

/**
 * Tiny tasks, each on a virtual thread of its own (the count is the argument). Once they have
 * all ended it prints, on stderr, the heap still in use after a full collection.
 */
public class ManyVirtualThreads {
    static final LongAdder DONE = new LongAdder();

    static void task() {
        DONE.increment();
    }

    public static void main(String[] args) {
        int tasks = Integer.parseInt(args[0]);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < tasks; i++) {
                executor.submit(ManyVirtualThreads::task);
            }
        }
        System.out.println("tasks " + DONE.sum());
        System.gc();
        System.gc();
        Runtime runtime = Runtime.getRuntime();
        System.err.println("heap in use MB " + (runtime.totalMemory() - runtime.freeMemory()) / (1024 * 1024));
    }
}
