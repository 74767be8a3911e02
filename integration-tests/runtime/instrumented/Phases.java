import java.io.File;

/**
 * Two phases: A calls only a(), B only b(). Given the periodic agent's snapshot directory, it waits
 * between them (in an instrumented loop, so that the timer's asks reach it) until the timer has
 * written three more snapshots: phase A's counts are then all handed over before phase B starts.
 */
public class Phases {
    static long sink;

    static void a(int i) {
        sink += i;
    }

    static void b(int i) {
        sink -= 2L * i;
    }

    static void phaseA() {
        for (int i = 0; i < 300_000; i++) {
            a(i);
        }
    }

    static void phaseB() {
        for (int i = 0; i < 300_000; i++) {
            b(i);
        }
    }

    static int snapshots(File dir) {
        String[] names = dir.list();
        return names == null ? 0 : names.length;
    }

    static void waitForSnapshots(File dir, int more) throws InterruptedException {
        int until = snapshots(dir) + more;
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (snapshots(dir) < until) {
            if (System.nanoTime() > deadline) {
                System.out.println("no new snapshots in " + dir);
                System.exit(3);
            }
            Thread.sleep(5);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        phaseA();
        if (args.length > 0) {
            waitForSnapshots(new File(args[0]), 3);
        }
        phaseB();
        System.out.println("sink " + sink);
    }
}
