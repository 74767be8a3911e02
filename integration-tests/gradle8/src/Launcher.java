import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * The `gradle` command of the assembled Gradle home: loads Gradle and {@code InProcessGradle} in a
 * class loader of their own (with Gradle's jars on the system class path the JVM would find the
 * file-system providers inside them while it is still starting) and runs one build.
 */
public final class Launcher {
    private Launcher() {}

    public static void main(String[] args) throws Exception {
        File home = new File(System.getProperty("jp.gradle.home"));
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("jp.gradle.classpath").split(File.pathSeparator)) {
            File file = new File(entry);
            urls.add((file.isAbsolute() ? file : new File(home, entry)).toURI().toURL());
        }
        URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        Method run = loader.loadClass("InProcessGradle").getMethod("run", String[].class);
        int status = (Integer) run.invoke(null, (Object) args);
        System.exit(status);
    }
}
