package demo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A thread pool whose tasks sometimes throw. With submit() the pool (FutureTask) catches the
 * exception and the same worker thread goes on with the next task, so the frames the exception
 * left must have been popped. With execute() a throwing task ends its worker; the uncaught
 * exception handler (a program class, called back by the JDK on a thread with no program frame,
 * so under the root) sees it and the pool starts a new worker through the program's factory.
 * To keep the run deterministic the workers of the second pool wait at a gate until every task
 * is queued (so replacements are always started by the dying worker, never by execute()), and
 * main shuts the pool down only after the factory has made all the threads it will make, and
 * prints only after the handler has seen both exceptions: a dying worker starts its replacement,
 * and may let the pool terminate, before the JDK calls the handler on it.
 */
public class ThreadPool {
    static final class Factory implements ThreadFactory {
        final CountDownLatch expected;
        int created;

        Factory(int expected) {
            this.expected = new CountDownLatch(expected);
        }

        @Override
        public synchronized Thread newThread(Runnable r) {
            expected.countDown();
            Thread t = new Thread(r, "pool-" + created++);
            t.setUncaughtExceptionHandler(new Handler());
            return t;
        }
    }

    static final class Handler implements Thread.UncaughtExceptionHandler {
        /** The tasks of the second pool that throw: 3 and 7. */
        static final CountDownLatch expected = new CountDownLatch(2);
        static int seen;

        @Override
        public void uncaughtException(Thread t, Throwable e) {
            synchronized (Handler.class) {
                seen++;
            }
            expected.countDown();
        }
    }

    static int compute(int n) {
        if (n % 4 == 3) {
            return fail(n);
        }
        int s = 0;
        for (int i = 0; i <= n; i++) {
            s += i;
        }
        return s;
    }

    static int fail(int n) {
        throw new IllegalArgumentException("task " + n);
    }

    static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        // 1 thread for the single executor, 2 for the fixed pool, 1 replacement per throwing task (3 and 7)
        Factory factory = new Factory(5);
        ExecutorService single = Executors.newSingleThreadExecutor(factory);
        List<Future<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            final int n = i;
            futures.add(single.submit(() -> compute(n)));
        }
        int sum = 0;
        int failed = 0;
        for (Future<Integer> f : futures) {
            try {
                sum += f.get();
            } catch (ExecutionException e) {
                failed++;
            }
        }
        single.shutdown();
        single.awaitTermination(1, TimeUnit.MINUTES);

        ExecutorService pool = Executors.newFixedThreadPool(2, factory);
        CountDownLatch gate = new CountDownLatch(1);
        for (int i = 0; i < 8; i++) {
            final int n = i;
            pool.execute(() -> {
                await(gate);
                compute(n);
            });
        }
        gate.countDown();
        await(factory.expected);
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
        await(Handler.expected);
        System.out.println(sum + " " + failed + " " + Handler.seen + " " + factory.created);
    }
}
