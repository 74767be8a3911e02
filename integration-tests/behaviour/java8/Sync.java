import java.util.ArrayList;
import java.util.List;

/**
 * synchronized blocks (monitorenter and monitorexit with the compiler's catch-all handler that
 * covers itself), synchronized methods, nested and re-entrant locking, exceptions thrown while a
 * monitor is held, loops inside and around synchronized blocks, and threads whose results are
 * joined in a fixed order. Ends with System.exit(3).
 */
public class Sync {
    private final Object lock = new Object();
    private long counter; // guarded by this
    private long blockCounter; // guarded by lock
    private final List<String> log = new ArrayList<>();

    synchronized void incrementMethod(int times) {
        for (int i = 0; i < times; i++) counter++;
    }

    void incrementBlock(int times) {
        for (int i = 0; i < times; i++) {
            synchronized (lock) {
                blockCounter += 2;
            }
        }
    }

    int nested(int depth) {
        synchronized (this) {
            synchronized (lock) {
                if (depth == 0) return 0;
                return 1 + nested(depth - 1); // re-entrant on both monitors
            }
        }
    }

    String throwInside(int x) {
        try {
            synchronized (lock) {
                if (x > 2) throw new IllegalStateException("inside " + x);
                log.add("ok " + x);
                return "returned " + x;
            }
        } catch (IllegalStateException e) {
            // The monitor must have been released: take it again from another thread.
            Thread t = new Thread(() -> {
                synchronized (lock) {
                    log.add("other thread after " + x);
                }
            });
            t.start();
            try {
                t.join();
            } catch (InterruptedException ie) {
                throw new AssertionError(ie);
            }
            return "caught " + e.getMessage();
        }
    }

    static synchronized long staticSync(long n) {
        long r = 1;
        while (n > 1) {
            synchronized (Sync.class) {
                r = r * n % 1000000007L;
            }
            n--;
        }
        return r;
    }

    public static void main(String[] args) throws InterruptedException {
        Sync s = new Sync();
        Thread[] threads = new Thread[4];
        for (int i = 0; i < threads.length; i++) {
            final int k = i;
            threads[i] = new Thread(() -> {
                s.incrementMethod(10000 + k);
                s.incrementBlock(5000);
            });
            threads[i].start();
        }
        for (Thread t : threads) t.join();
        System.out.println("counter " + s.counter + " blockCounter " + s.blockCounter);
        System.out.println("nested " + s.nested(20));
        for (int x = 0; x < 5; x++) System.out.println(s.throwInside(x));
        System.out.println("log " + s.log);
        System.out.println("staticSync " + staticSync(5000));
        Object monitor = new Object();
        final boolean[] ready = {false};
        Thread waiter = new Thread(() -> {
            synchronized (monitor) {
                while (!ready[0]) {
                    try {
                        monitor.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        });
        waiter.start();
        synchronized (monitor) {
            ready[0] = true;
            monitor.notifyAll();
        }
        waiter.join();
        System.out.println("waiter done " + waiter.isAlive());
        System.exit(3);
    }
}
