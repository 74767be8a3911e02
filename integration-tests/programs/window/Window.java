package window;

import org.jpprof.runtime.JP;

/**
 * A recording window: a warm-up before JP.start(), a middle phase, JP.stop(), a cool-down. Run with
 * jp.start=paused (the oracle's start=paused), only what began in the window counts; recording from
 * the start, JP.start() changes nothing and only the cool-down is left out. It also covers the edges:
 * an activation that spans the start (not counted: its callees in the window hang under the
 * nearest counted activation), one that spans the stop (counted whole, but not what it calls
 * after the stop), a thread started in the window, and a thread that outlives it.
 */
public class Window {
    static int step(int i) {
        return i * 3 + 1;
    }

    static int work(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += step(i);
        }
        return sum;
    }

    static int warmUp() {
        return work(50);
    }

    /** Begins before the window and starts it halfway. */
    static int spanningStart() {
        int sum = work(7);
        JP.start();
        return sum + work(11);
    }

    /** Begins in the window and stops it halfway: its own bytecodes count to the end. */
    static int spanningStop() {
        int sum = work(13);
        JP.stop();
        for (int i = 0; i < 5; i++) {
            sum += i;
        }
        return sum + work(17);
    }

    static int middle() throws InterruptedException {
        int[] result = new int[1];
        Thread helper = new Thread(() -> result[0] = work(23), "window-helper");
        helper.start();
        helper.join();
        return work(200) + result[0];
    }

    static int coolDown() {
        return work(30);
    }

    public static void main(String[] args) throws InterruptedException {
        int sum = warmUp();
        sum += spanningStart();
        sum += middle();
        sum += spanningStop();
        sum += coolDown();
        System.out.println("sum " + sum + ", recording " + JP.isRecording());
    }
}
