import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.function.IntSupplier;

/**
 * Loads a plugin class again and again, each time in a new class loader that is dropped after
 * one call, as application servers, hot reload and per-test class loaders do. Its memory must not
 * grow with the number of loads: the classes are unloaded, and an instrumented run must not keep
 * anything per load. Usage: Reload PLUGIN-CLASSES-DIR LOADS
 */
public class Reload {
    public static void main(String[] args) throws Exception {
        URL[] plugin = {new File(args[0]).toURI().toURL()};
        int loads = Integer.parseInt(args[1]);
        long total = 0;
        for (int i = 0; i < loads; i++) {
            try (URLClassLoader loader = new URLClassLoader(plugin, Reload.class.getClassLoader())) {
                IntSupplier work = (IntSupplier) loader.loadClass("Plugin").getDeclaredConstructor().newInstance();
                total += work.getAsInt();
            }
        }
        System.out.println("loads " + loads + ", total " + total);
    }
}
