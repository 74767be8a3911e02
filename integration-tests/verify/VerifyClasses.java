import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Loads every class of some roots (jars or class directories) in a fresh class loader and forces
 * HotSpot to link it, which verifies it (docs/architecture.md, "Verification"), then reports which classes failed.
 *
 * <pre>
 * java VerifyClasses [--cp DEPS] [--separate] [--report FILE] [--tsv FILE] [--title TEXT] ROOT...
 * java VerifyClasses --compare BEFORE.tsv AFTER.tsv [--show N]
 * </pre>
 *
 * <p>The roots' classes are defined by a child-first loader: a class of the roots always comes
 * from the roots, never from the application class path. Names that the roots lack go to a
 * second child-first loader over {@code --cp} (the dependencies, a path list), and then to the
 * platform class loader, so JDK classes resolve. {@code java/*} classes, {@code module-info} and
 * {@code package-info} are skipped. Multi-release entries ({@code META-INF/versions/N/}, N not
 * above this JVM's release) are checked too, each release in a loader that sees the classes as a
 * JVM of that release would. With {@code --separate} each root gets loaders of its own (two jars
 * may hold the same class); otherwise the first root that holds a class wins.
 *
 * <p>Each class is loaded with {@code Class.forName(name, false, loader)}, which does not
 * initialise it, and linked by {@code getDeclaredMethods()}. It counts as a verify error when that
 * throws {@link VerifyError} or {@link ClassFormatError}, and as another failure for anything
 * else ({@link NoClassDefFoundError} for a missing dependency, say). Classes whose version is newer
 * than this JVM reads are counted as skipped. See {@link Findings} for the outputs.
 *
 * <p>{@code --compare} prints the classes that fail in AFTER but not in BEFORE (two {@code --tsv}
 * tables) and exits 1 when there are any. Otherwise the exit status is 0 once the roots were
 * checked, whatever was found, and 2 for a usage error.
 */
public final class VerifyClasses {
    private VerifyClasses() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--compare")) {
            if (args.length != 3 && !(args.length == 5 && args[3].equals("--show"))) usage();
            int show = args.length == 5 ? Integer.parseInt(args[4]) : 50;
            System.exit(Findings.compare(Path.of(args[1]), Path.of(args[2]), show) == 0 ? 0 : 1);
        }
        VerifyArgs options = VerifyArgs.parse(args, "VerifyClasses", USAGE);
        List<Path> deps = options.deps;
        List<Path> roots = options.roots;
        boolean separate = options.separate;
        Path report = options.report;
        Path tsv = options.tsv;
        String title = options.title;

        List<ClassRoots.Root> depRoots = new ArrayList<>();
        for (Path dep : deps) depRoots.add(ClassRoots.open(dep));
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        int runtime = Runtime.version().feature();
        ClassLoader depsLoader = depRoots.isEmpty()
                ? platform
                : new ChildFirstLoader("deps", platform, name -> first(depRoots, name, runtime));

        Findings findings = new Findings();
        List<List<ClassRoots.Root>> groups = new ArrayList<>();
        List<ClassRoots.Root> all = new ArrayList<>();
        for (Path path : roots) all.add(ClassRoots.open(path));
        if (separate) {
            for (ClassRoots.Root root : all) groups.add(List.of(root));
        } else {
            groups.add(all);
        }
        for (List<ClassRoots.Root> group : groups) {
            String prefix = separate ? group.get(0).label() + "!" : "";
            Set<Integer> releases = new LinkedHashSet<>();
            for (ClassRoots.Root root : group) releases.addAll(root.releases());
            for (int release : releases) {
                ClassLoader loader = new ChildFirstLoader("roots", depsLoader, name -> first(group, name, release));
                for (ClassRoots.Root root : group) {
                    for (String name : root.classesAt(release)) {
                        if (owner(group, name) != root) continue; // shadowed by an earlier root
                        String shown = prefix + name + (release == 0 ? "" : "@" + release);
                        int major = ClassRoots.majorVersion(root.exactBytes(name, release));
                        if (major > ClassRoots.MAX_MAJOR) {
                            findings.skip(shown, major);
                            continue;
                        }
                        check(loader, name, shown, findings);
                    }
                }
            }
        }
        findings.write(report, tsv, title);
        System.out.println(findings.summary());
        for (ClassRoots.Root root : all) root.close();
        for (ClassRoots.Root root : depRoots) root.close();
    }

    private static void check(ClassLoader loader, String name, String shown, Findings findings) {
        try {
            Class<?> c = Class.forName(name, false, loader);
            if (c.getClassLoader() != loader) {
                findings.fail(shown, Findings.OTHER, "loaded from " + c.getClassLoader() + ", not the roots", "");
                return;
            }
            c.getDeclaredMethods(); // HotSpot links (and so verifies) the class here
            findings.ok();
        } catch (UnsupportedClassVersionError e) {
            // A superclass or interface too new for this JVM: not a verification result.
            findings.fail(shown, Findings.OTHER, e.toString(), e.toString());
        } catch (Throwable t) {
            findings.fail(shown, t);
        }
    }

    /** The first root of the group that has {@code name} at all. */
    private static ClassRoots.Root owner(List<ClassRoots.Root> group, String name) {
        for (ClassRoots.Root root : group) {
            if (root.has(name)) return root;
        }
        return null;
    }

    /** The bytes of {@code name} from the first root that has it, as seen by {@code release}. */
    private static byte[] first(List<ClassRoots.Root> group, String name, int release) {
        ClassRoots.Root root = owner(group, name);
        return root == null ? null : root.bytes(name, release);
    }

    private static final String USAGE = "usage: VerifyClasses [--cp DEPS] [--separate] [--report FILE] [--tsv FILE]"
                + " [--title TEXT] ROOT...\n       VerifyClasses --compare BEFORE.tsv AFTER.tsv [--show N]";

    private static void usage() {
        VerifyArgs.fail(USAGE);
    }

    /**
     * Defines the classes that {@code classes} knows itself, before asking its parent; so a class
     * of the roots is never taken from elsewhere.
     */
    static final class ChildFirstLoader extends ClassLoader {
        static {
            registerAsParallelCapable();
        }

        private final Function<String, byte[]> classes;

        ChildFirstLoader(String name, ClassLoader parent, Function<String, byte[]> classes) {
            super(name, parent);
            this.classes = classes;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    byte[] bytes = name.startsWith("java.") ? null : classes.apply(name);
                    if (bytes == null) return super.loadClass(name, resolve);
                    c = defineClass(name, bytes, 0, bytes.length);
                }
                if (resolve) resolveClass(c);
                return c;
            }
        }
    }
}
