/**
 * A thread that claims the id 1, whichever thread it is. Left uninstrumented (it is on the class
 * path beside the instrumented classes), so that its getId() is the only thing that changes.
 */
public class SameIdThread extends Thread {
    public SameIdThread(Runnable task) {
        super(task);
    }

    @Override
    @SuppressWarnings("deprecation")
    public long getId() {
        return 1;
    }
}
