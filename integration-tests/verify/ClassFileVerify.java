import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.constant.ClassDesc;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks every class of some roots with the JDK 25 ClassFile API's verifier
 * ({@code ClassFile.verify(bytes)}), which follows HotSpot's split verifier without loading
 * anything, and reports which classes it rejects. Needs JDK 24 or newer to compile and run.
 *
 * <pre>
 * java ClassFileVerify [--cp DEPS] [--separate] [--report FILE] [--tsv FILE] [--title TEXT] ROOT...
 * </pre>
 *
 * <p>The roots and classes are the same as {@code VerifyClasses} checks (see {@link ClassRoots}).
 * The class hierarchy that the verifier asks about is parsed from the class files of the root
 * (as the JVM of the entry's release would see them), then of the dependencies, then of the
 * running JDK ({@link ClassHierarchyResolver#defaultResolver()}). A class counts as a verify error
 * when the list of errors is not empty, and as another failure when the verifier throws. Classes
 * older than 50 have no StackMapTable and need the inference verifier, which the API lacks
 * ("Inference verification is not supported"): that one error is not counted, and the classes are
 * reported as only parsed. A class whose only errors are classes that no root, dependency or JDK
 * holds ("Could not resolve class") counts as another failure, as in HotSpot. Summary, report and table are those of {@link Findings}; compare two
 * tables with {@code VerifyClasses --compare}.
 */
public final class ClassFileVerify {
    private ClassFileVerify() {}

    private static final String NO_INFERENCE = "Inference verification is not supported";
    private static final String UNRESOLVED = "java.lang.IllegalArgumentException: Could not resolve class ";

    public static void main(String[] args) throws Exception {
        VerifyArgs options = VerifyArgs.parse(args, "ClassFileVerify", USAGE);
        List<Path> deps = options.deps;
        List<Path> roots = options.roots;
        boolean separate = options.separate;
        Path report = options.report;
        Path tsv = options.tsv;
        String title = options.title;

        List<ClassRoots.Root> depRoots = new ArrayList<>();
        for (Path dep : deps) depRoots.add(ClassRoots.open(dep));
        int runtime = Runtime.version().feature();
        List<ClassRoots.Root> all = new ArrayList<>();
        for (Path path : roots) all.add(ClassRoots.open(path));
        List<List<ClassRoots.Root>> groups = new ArrayList<>();
        if (separate) {
            for (ClassRoots.Root root : all) groups.add(List.of(root));
        } else {
            groups.add(all);
        }

        Findings findings = new Findings();
        int unchecked = 0;
        ClassHierarchyResolver fromDeps = ClassHierarchyResolver
                .ofResourceParsing(desc -> stream(depRoots, desc, runtime))
                .orElse(ClassHierarchyResolver.defaultResolver())
                .cached();
        for (List<ClassRoots.Root> group : groups) {
            String prefix = separate ? group.get(0).label() + "!" : "";
            for (int release : releases(group)) {
                ClassFile classFile = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                        ClassHierarchyResolver.ofResourceParsing(desc -> stream(group, desc, release))
                                .orElse(fromDeps)));
                for (ClassRoots.Root root : group) {
                    for (String name : root.classesAt(release)) {
                        if (owner(group, name) != root) continue;
                        String shown = prefix + name + (release == 0 ? "" : "@" + release);
                        byte[] bytes = root.exactBytes(name, release);
                        int major = ClassRoots.majorVersion(bytes);
                        if (major > ClassFile.latestMajorVersion()) {
                            findings.skip(shown, major);
                            continue;
                        }
                        try {
                            List<String> errors = new ArrayList<>();
                            for (VerifyError e : classFile.verify(bytes)) {
                                if (!(major < 50 && NO_INFERENCE.equals(e.getMessage()))) {
                                    errors.add(String.valueOf(e.getMessage()));
                                }
                            }
                            if (major < 50 && errors.isEmpty()) unchecked++;
                            if (errors.isEmpty()) {
                                findings.ok();
                            } else {
                                // Only classes missing from the roots, dependencies and JDK: what
                                // HotSpot would report as NoClassDefFoundError, not a verify error.
                                String kind = errors.stream().allMatch(e -> e.startsWith(UNRESOLVED))
                                        ? Findings.OTHER
                                        : Findings.VERIFY;
                                String summary = errors.get(0).lines().findFirst().orElse("")
                                        + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : "");
                                findings.fail(shown, kind, summary, String.join("\n", errors));
                            }
                        } catch (Throwable t) {
                            findings.fail(shown, Findings.OTHER, t.toString(), t.toString());
                        }
                    }
                }
            }
        }
        findings.write(report, tsv, title);
        System.out.println(findings.summary());
        if (unchecked > 0) {
            System.out.println("verify: " + unchecked + " classes older than 50 only parsed"
                    + " (the ClassFile API has no inference verifier)");
        }
        for (ClassRoots.Root root : all) root.close();
        for (ClassRoots.Root root : depRoots) root.close();
    }

    private static List<Integer> releases(List<ClassRoots.Root> group) {
        java.util.TreeSet<Integer> releases = new java.util.TreeSet<>();
        for (ClassRoots.Root root : group) releases.addAll(root.releases());
        return new ArrayList<>(releases);
    }

    private static ClassRoots.Root owner(List<ClassRoots.Root> group, String name) {
        for (ClassRoots.Root root : group) {
            if (root.has(name)) return root;
        }
        return null;
    }

    /** The class file for {@code desc} from the first root that has it, or null. */
    private static InputStream stream(List<ClassRoots.Root> group, ClassDesc desc, int release) {
        String descriptor = desc.descriptorString();
        if (!descriptor.startsWith("L")) return null;
        String name = descriptor.substring(1, descriptor.length() - 1).replace('/', '.');
        ClassRoots.Root root = owner(group, name);
        byte[] bytes = root == null ? null : root.bytes(name, release);
        return bytes == null ? null : new ByteArrayInputStream(bytes);
    }

    private static final String USAGE = "usage: ClassFileVerify [--cp DEPS] [--separate] [--report FILE] [--tsv FILE]"
                + " [--title TEXT] ROOT...";
}
