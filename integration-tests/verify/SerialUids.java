import java.io.ObjectStreamClass;
import java.io.PrintStream;
import java.io.Serializable;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints the {@code serialVersionUID} that serialization uses for every serializable class of the
 * roots, one {@code N!name<TAB>value} line per class, N being the root's position among the
 * arguments ({@code N!name<TAB>error: ...} when the class cannot be loaded or its value read). Run it on the original and on the instrumented
 * classes and compare: JP must not change the value of any class.
 *
 * <pre>java SerialUids [--cp DEPS] ROOT...</pre>
 *
 * Each root gets a loader of its own over the root and DEPS. Reading a declared value initialises
 * the class, so an instrumented root needs the runtime jar in DEPS.
 */
public final class SerialUids {
    private SerialUids() {}

    public static void main(String[] args) throws Exception {
        List<Path> deps = new ArrayList<>();
        List<Path> roots = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--cp") && i + 1 < args.length) {
                deps.addAll(ClassRoots.pathList(args[++i]));
            } else if (args[i].startsWith("--")) {
                VerifyArgs.fail("usage: SerialUids [--cp DEPS] ROOT...");
            } else {
                roots.add(Path.of(args[i]));
            }
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        for (int n = 0; n < roots.size(); n++) {
            Path rootPath = roots.get(n);
            try (ClassRoots.Root root = ClassRoots.open(rootPath)) {
                List<URL> urls = new ArrayList<>();
                urls.add(rootPath.toUri().toURL());
                for (Path dep : deps) urls.add(dep.toUri().toURL());
                ClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
                for (String name : root.classesAt(0)) {
                    String line;
                    try {
                        Class<?> c = Class.forName(name, false, loader);
                        if (!Serializable.class.isAssignableFrom(c) || c.isInterface()) continue;
                        line = Long.toString(ObjectStreamClass.lookup(c).getSerialVersionUID());
                    } catch (Throwable t) {
                        line = "error: " + t.getClass().getName();
                    }
                    out.println(n + "!" + name + "\t" + line);
                }
            }
        }
        out.flush();
    }
}
