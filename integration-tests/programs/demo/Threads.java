package demo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Several threads, each with a fixed amount of work: a Thread subclass, a Runnable class and
 * lambdas. Each thread's tree is merged by frame path, so the result does not depend on the
 * interleaving. Shared state is only accumulated (synchronized or atomic), never branched on.
 * Every thread's first action reads a table of a class that no one has initialised yet, so the
 * threads race to initialise it; whichever wins, its <clinit> is one context under the root.
 */
public class Threads {
    static final AtomicLong TOTAL = new AtomicLong();
    static long synchronizedTotal;

    static synchronized void addSynchronized(long v) {
        synchronizedTotal += v;
    }

    static long work(int seed, int rounds) {
        long h = seed;
        for (int i = 0; i < rounds; i++) {
            h = h * 6364136223846793005L + 1442695040888963407L;
            if ((h >>> 60) % 3 == 0) {
                h ^= helper(i);
            }
        }
        return h;
    }

    static long helper(int i) {
        return i * 31L;
    }

    static final class Table {
        static final long[] VALUES = new long[64];

        static {
            for (int i = 0; i < VALUES.length; i++) {
                VALUES[i] = helper(i) ^ (i * 7L);
            }
        }
    }

    static final class Worker extends Thread {
        final int seed;

        Worker(int seed) {
            super("worker-" + seed);
            this.seed = seed;
        }

        @Override
        public void run() {
            TOTAL.addAndGet(Table.VALUES[seed]);
            TOTAL.addAndGet(work(seed, 200));
        }
    }

    static final class Job implements Runnable {
        final int seed;

        Job(int seed) {
            this.seed = seed;
        }

        @Override
        public void run() {
            addSynchronized(Table.VALUES[seed]);
            addSynchronized(work(seed, 150));
            nested(3);
        }

        void nested(int depth) {
            if (depth > 0) {
                nested(depth - 1);
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            threads.add(new Worker(i));
            threads.add(new Thread(new Job(i + 10), "job-" + i));
            final int seed = i + 20;
            threads.add(new Thread(() -> addSynchronized(work(seed, 100) + Table.VALUES[seed]), "lambda-" + i));
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println(TOTAL.get() + " " + synchronizedTotal);
    }
}
