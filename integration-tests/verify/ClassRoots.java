import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The class files of one root (a jar or a class directory), read the way a JVM of a given release
 * would see them, shared by {@code VerifyClasses} and {@code ClassFileVerify}.
 *
 * <p>A class is known by its binary name ({@code a.b.C}). In a multi-release root (a manifest with
 * {@code Multi-Release: true}) a class may have several entries: the base one (release 0 here) and
 * one per {@code META-INF/versions/N/}. Entries for a release newer than the running JVM are left
 * out, and so are {@code java/*} classes (no class loader but the boot loader may define them),
 * {@code module-info}, {@code package-info} and other class files under {@code META-INF/}.
 *
 * <p>Bytes are read lazily, so a root costs an index, not its contents.
 */
final class ClassRoots {
    private ClassRoots() {}

    /** The highest class-file major version the running JVM accepts (JVMS §4.1: 44 + release). */
    static final int MAX_MAJOR = 44 + Runtime.version().feature();

    /** One root: where it is, and for each class its entries by release (0 = base). */
    static final class Root implements AutoCloseable {
        final Path path;
        private final ZipFile zip; // null for a directory
        private final TreeMap<String, TreeMap<Integer, String>> entries = new TreeMap<>();

        private Root(Path path, ZipFile zip) {
            this.path = path;
            this.zip = zip;
        }

        /** The file name of the root, as it appears in reports ({@code guava-33.4.0-jre.jar}). */
        String label() {
            return path.getFileName().toString();
        }

        /** Releases that have entries, in order: 0 (base) first, then each versions/N. */
        TreeSet<Integer> releases() {
            TreeSet<Integer> releases = new TreeSet<>();
            entries.values().forEach(byRelease -> releases.addAll(byRelease.keySet()));
            return releases;
        }

        /** Whether the root has any entry for {@code name}. */
        boolean has(String name) {
            return entries.containsKey(name);
        }

        /** The classes whose entry for exactly this release exists, by binary name. */
        List<String> classesAt(int release) {
            List<String> names = new ArrayList<>();
            entries.forEach((name, byRelease) -> {
                if (byRelease.containsKey(release)) names.add(name);
            });
            return names;
        }

        /**
         * The bytes a JVM of {@code release} would load for {@code name} from this root: the entry
         * of the highest release not above it. Null when the root has no such class.
         */
        byte[] bytes(String name, int release) {
            TreeMap<Integer, String> byRelease = entries.get(name);
            if (byRelease == null) return null;
            Map.Entry<Integer, String> entry = byRelease.floorEntry(release);
            return entry == null ? null : read(entry.getValue());
        }

        /** The bytes of the entry of {@code name} for exactly {@code release}. */
        byte[] exactBytes(String name, int release) {
            return read(entries.get(name).get(release));
        }

        private byte[] read(String entryName) {
            try {
                if (zip == null) return Files.readAllBytes(path.resolve(entryName));
                ZipEntry entry = zip.getEntry(entryName);
                try (InputStream in = zip.getInputStream(entry)) {
                    return in.readAllBytes();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(path + "!" + entryName, e);
            }
        }

        @Override
        public void close() throws IOException {
            if (zip != null) zip.close();
        }
    }

    /** Opens a jar (or any zip) or a class directory and indexes its class entries. */
    static Root open(Path path) throws IOException {
        List<String> names = new ArrayList<>();
        Root root;
        boolean multiRelease;
        if (Files.isDirectory(path)) {
            root = new Root(path, null);
            try (Stream<Path> files = Files.walk(path)) {
                files.filter(Files::isRegularFile)
                        .map(p -> path.relativize(p).toString().replace('\\', '/'))
                        .filter(n -> n.endsWith(".class"))
                        .forEach(names::add);
            }
            Path manifest = path.resolve(JarFile.MANIFEST_NAME);
            multiRelease = false;
            if (Files.isRegularFile(manifest)) {
                try (InputStream in = Files.newInputStream(manifest)) {
                    multiRelease = isMultiRelease(new Manifest(in));
                }
            }
        } else {
            JarFile jar = new JarFile(path.toFile(), false);
            root = new Root(path, jar);
            jar.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class")).forEach(names::add);
            multiRelease = isMultiRelease(jar.getManifest());
        }
        for (String entryName : names) {
            int release = 0;
            String name = entryName;
            if (name.startsWith("META-INF/")) {
                String[] parts = name.split("/", 4);
                if (!multiRelease || parts.length < 4 || !parts[1].equals("versions")) continue;
                try {
                    release = Integer.parseInt(parts[2]);
                } catch (NumberFormatException e) {
                    continue;
                }
                if (release < 9 || release > Runtime.version().feature()) continue;
                name = parts[3];
            }
            String simple = name.substring(name.lastIndexOf('/') + 1);
            if (name.startsWith("java/") || simple.equals("module-info.class")
                    || simple.equals("package-info.class")) {
                continue;
            }
            String binaryName = name.substring(0, name.length() - ".class".length()).replace('/', '.');
            root.entries.computeIfAbsent(binaryName, k -> new TreeMap<>()).put(release, entryName);
        }
        return root;
    }

    private static boolean isMultiRelease(Manifest manifest) {
        if (manifest == null) return false;
        String value = manifest.getMainAttributes().getValue(new Attributes.Name("Multi-Release"));
        return value != null && value.trim().equalsIgnoreCase("true");
    }

    /** The major version of a class file, or -1 when it is too short to have one. */
    static int majorVersion(byte[] bytes) {
        if (bytes.length < 8) return -1;
        return ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff);
    }

    /** Splits a path list ({@code a.jar:b.jar}) into paths, ignoring empty elements. */
    static List<Path> pathList(String list) {
        List<Path> paths = new ArrayList<>();
        for (String element : list.split(java.io.File.pathSeparator)) {
            if (!element.isEmpty()) paths.add(Path.of(element));
        }
        return paths;
    }
}
