import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

/** One million tiny tasks, each on a virtual thread of its own. */
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
    }
}
