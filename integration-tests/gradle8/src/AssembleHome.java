import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.Properties;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

/**
 * Lays out a Gradle home around the one jar that holds Gradle's whole runtime
 * ({@code dev.gradleplugins:gradle-api}, from Maven Central): Gradle finds its modules as
 * {@code lib/gradle-<module>-<version>.jar}, each holding {@code gradle-<module>-classpath.properties}
 * (the modules and third-party jars it needs). Each such jar here holds only that file, names the big
 * jar, Groovy and the Kotlin standard library among its third-party jars, and points to the big jar in
 * its manifest's Class-Path (worker processes get a module's own jar only). Third-party jars that the
 * big jar already holds are present as empty jars, since Gradle insists on finding them. Before the
 * big jar on every class path goes the overlay of {@link Unrelocate}.
 *
 * <p>Usage: {@code java -cp <ASM jars> AssembleHome.java <api jar> <version> <home> <extra jar>...};
 * prints the class path of a build process, relative to the home.
 */
public final class AssembleHome {
    private static final String SUFFIX = "-classpath.properties";
    private static final String OVERLAY = "gradle-test-frameworks-overlay.jar";

    private AssembleHome() {}

    public static void main(String[] args) throws IOException {
        Path api = Paths.get(args[0]);
        String version = args[1];
        Path home = Paths.get(args[2]);
        Path lib = Files.createDirectories(home.resolve("lib"));
        Files.createDirectories(lib.resolve("plugins"));
        String apiName = "gradle-api-" + version + ".jar";
        Path apiCopy = lib.resolve(apiName);
        if (!Files.exists(apiCopy)) {
            try {
                Files.createLink(apiCopy, api); // a hard link or a copy: Gradle resolves symbolic links
            } catch (IOException | UnsupportedOperationException e) {
                Files.copy(api, apiCopy);
            }
        }
        Set<String> extras = new LinkedHashSet<>();
        extras.add(OVERLAY);
        Unrelocate.write(api, lib.resolve(OVERLAY));
        extras.add(apiName);
        for (int i = 3; i < args.length; i++) {
            Path extra = Paths.get(args[i]);
            Files.copy(extra, lib.resolve(extra.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            extras.add(extra.getFileName().toString());
        }
        Set<String> thirdParty = new LinkedHashSet<>();
        try (JarFile jar = new JarFile(api.toFile())) {
            for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
                String name = entries.nextElement().getName();
                if (!name.startsWith("gradle-") || !name.endsWith(SUFFIX) || name.contains("/")) continue;
                String module = name.substring(0, name.length() - SUFFIX.length());
                Properties properties = new Properties();
                try (InputStream in = jar.getInputStream(jar.getEntry(name))) {
                    properties.load(in);
                }
                Set<String> runtime = new LinkedHashSet<>();
                for (String item : properties.getProperty("runtime", "").split(",")) {
                    if (!item.isEmpty()) runtime.add(item);
                }
                thirdParty.addAll(runtime);
                runtime.addAll(extras);
                properties.setProperty("runtime", String.join(",", runtime));
                writeModule(lib.resolve(module + "-" + version + ".jar"), name, properties, String.join(" ", extras));
            }
        }
        thirdParty.removeAll(extras);
        for (String name : thirdParty) {
            Path jar = lib.resolve(name);
            if (!Files.exists(jar)) writeJar(jar, new Manifest(), null, null);
        }
        StringBuilder classPath = new StringBuilder();
        for (String name : extras) {
            if (classPath.length() > 0) classPath.append(java.io.File.pathSeparatorChar);
            classPath.append("lib/").append(name);
        }
        System.out.println(classPath);
    }

    private static void writeModule(Path jar, String entry, Properties properties, String classPath) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
        StringBuilder text = new StringBuilder();
        for (String key : properties.stringPropertyNames()) {
            text.append(key).append('=').append(properties.getProperty(key)).append('\n');
        }
        writeJar(jar, manifest, entry, text.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    private static void writeJar(Path jar, Manifest manifest, String entry, byte[] content) throws IOException {
        manifest.getMainAttributes().putIfAbsent(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            if (entry != null) {
                out.putNextEntry(new JarEntry(entry));
                out.write(content);
                out.closeEntry();
            }
        }
    }
}

/**
 * The jar that holds Gradle's whole runtime moved the test frameworks inside it (JUnit, TestNG,
 * opentest4j, Hamcrest) under {@code org.gradle.internal.impldep} and rewrote Gradle's own references
 * to them, class names in strings included. Gradle's test detection and test workers then look for
 * relocated names that user test class paths do not have. This writes the Gradle classes that refer
 * to them, with the original names back, into a jar that goes before the big one on class paths.
 */
final class Unrelocate {
    private static final String RELOCATED = "org/gradle/internal/impldep/";
    private static final String[] FRAMEWORKS = {"junit/", "org/junit/", "org/hamcrest/", "org/opentest4j/", "org/testng/"};

    private Unrelocate() {}

    /** Writes the overlay jar {@code overlay} for the classes of {@code api}. */
    static void write(Path api, Path overlay) throws IOException {
        Path partial = overlay.resolveSibling(overlay.getFileName() + ".partial");
        int rewritten = 0;
        try (JarFile jar = new JarFile(api.toFile());
                OutputStream file = Files.newOutputStream(partial);
                JarOutputStream out = new JarOutputStream(file)) {
            for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
                JarEntry entry = entries.nextElement();
                String name = entry.getName();
                if (!name.endsWith(".class") || !name.startsWith("org/gradle/") || name.startsWith(RELOCATED)) continue;
                byte[] bytes;
                try (InputStream in = jar.getInputStream(entry)) {
                    bytes = in.readAllBytes();
                }
                if (!mentionsRelocatedFramework(new String(bytes, StandardCharsets.ISO_8859_1))) continue;
                ClassReader reader = new ClassReader(bytes);
                ClassWriter writer = new ClassWriter(0);
                reader.accept(new ClassRemapper(writer, new OriginalNames()), 0);
                out.putNextEntry(new JarEntry(name));
                out.write(writer.toByteArray());
                out.closeEntry();
                rewritten++;
            }
        }
        Files.move(partial, overlay, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        System.err.println("unrelocated the test frameworks in " + rewritten + " Gradle classes");
    }

    private static boolean mentionsRelocatedFramework(String text) {
        for (String framework : FRAMEWORKS) {
            // Without the trailing separator: a package name alone ("...impldep.org.testng") counts too.
            String relocated = RELOCATED + framework.substring(0, framework.length() - 1);
            if (text.contains(relocated) || text.contains(relocated.replace('/', '.'))) return true;
        }
        return false;
    }

    /** Maps relocated test-framework names, internal ({@code a/b/C}) or dotted, back to the originals. */
    private static final class OriginalNames extends Remapper {
        @Override
        public String map(String internalName) {
            return original(internalName, RELOCATED);
        }

        @Override
        public Object mapValue(Object value) {
            if (value instanceof String) {
                String text = original((String) value, RELOCATED);
                return original(text, RELOCATED.replace('/', '.'));
            }
            return super.mapValue(value);
        }

        /** {@code text} with {@code prefix} (ending in its separator) dropped before each framework's package. */
        private static String original(String text, String prefix) {
            String separator = prefix.substring(prefix.length() - 1);
            String result = text;
            for (String framework : FRAMEWORKS) {
                String name = framework.substring(0, framework.length() - 1).replace("/", separator);
                result = result.replace(prefix + name, name);
            }
            return result;
        }
    }
}
