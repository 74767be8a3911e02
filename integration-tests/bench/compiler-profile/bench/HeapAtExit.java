package bench;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import javax.management.ObjectName;

/**
 * Runs a program's main method, then writes the JVM's class histogram of its live objects (what
 * {@code jcmd <pid> GC.class_histogram} prints) to the file the system property
 * {@code bench.histogram} names: where the heap goes once the program's work is done, before JP's
 * runtime writes its profile at exit. A program that ends with {@code System.exit} writes none.
 *
 * <p>usage: {@code java -Dbench.histogram=FILE -cp ... bench.HeapAtExit MAIN_CLASS ARGS...}
 */
public final class HeapAtExit {
    private HeapAtExit() {}

    public static void main(String[] args) throws Exception {
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        Object histogram = ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        Files.write(Paths.get(System.getProperty("bench.histogram")),
                String.valueOf(histogram).getBytes(StandardCharsets.UTF_8));
    }
}
