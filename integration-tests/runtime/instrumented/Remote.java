import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Driven from another JVM over JMX: started with jp.start=paused and jp.jmx=true, it says it is
 * ready, and runs before() until the file go exists (the controller starts recording first), then
 * middle() once, writes phase-done, waits for the file exit (the controller stops recording
 * first) and runs after(). Only middle() is counted.
 */
public class Remote {
    static int step(int i) {
        return i + 1;
    }

    static int work(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += step(i);
        }
        return sum;
    }

    static int before() {
        return work(3);
    }

    static int middle() {
        return work(40) + work(2);
    }

    static int after() {
        return work(5);
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Path dir = Paths.get(args[0]);
        int sum = before();
        System.out.println("ready");
        System.out.flush();
        // Waits in main itself, which began while paused and so is never counted: a method entered
        // here could begin before the controller's stop arrives.
        while (!Files.exists(dir.resolve("go"))) {
            Thread.sleep(20);
        }
        sum += middle();
        Files.createFile(dir.resolve("phase-done"));
        while (!Files.exists(dir.resolve("exit"))) {
            Thread.sleep(20);
        }
        sum += after();
        System.out.println("sum " + sum);
    }
}
