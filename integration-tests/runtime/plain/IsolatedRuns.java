import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * Runs isolated.Work from the directory args[1] where JP's runtime is not visible: "loader" in a
 * class loader whose parent is the bootstrap loader, "child" in a child JVM whose class path is that
 * directory alone (as byte-buddy-agent attaches through one).
 */
public class IsolatedRuns {
    public static void main(String[] args) throws Exception {
        File classes = new File(args[1]);
        if (args[0].equals("loader")) {
            try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toURI().toURL()}, null)) {
                System.out.print(loader.loadClass("isolated.Work").getMethod("run").invoke(null));
            }
        } else {
            String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
            Process child = new ProcessBuilder(java, "-Xverify:all", "-cp", classes.getPath(), "isolated.Work")
                    .inheritIO()
                    .start();
            System.out.println("child exit " + child.waitFor());
        }
    }
}
