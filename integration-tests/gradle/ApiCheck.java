import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Checks that a plugin jar, compiled against a newer Gradle API, only uses members that an older
 * Gradle has: every field, method and class of {@code org.gradle} named in its constant pools
 * must exist, with the same descriptor, in the older Gradle's jars. Classes whose names are given
 * with {@code --guarded} are skipped: the plugin loads them only on a Gradle that has their API.
 * Jars given with {@code --deps} (Groovy, Guava: what Gradle's own classes need to be inspected)
 * are searched after the Gradle directory.
 *
 * <pre>
 * java ApiCheck.java PLUGIN.jar GRADLE_LIB_DIR [--guarded NAME]... [--deps JAR]...
 * </pre>
 *
 * Prints one line per missing member and exits 1 if there is any, 0 otherwise.
 */
public final class ApiCheck {
    private static final int UTF8 = 1, CLASS = 7, FIELD = 9, METHOD = 10, IMETHOD = 11, NAME_AND_TYPE = 12;

    public static void main(String[] args) throws Exception {
        File plugin = new File(args[0]);
        File gradleLib = new File(args[1]);
        Set<String> guarded = new HashSet<>();
        List<URL> deps = new ArrayList<>();
        for (int i = 2; i + 1 < args.length; i += 2) {
            if (args[i].equals("--guarded")) {
                guarded.add(args[i + 1]);
            } else if (args[i].equals("--deps")) {
                deps.add(new File(args[i + 1]).toURI().toURL());
            } else {
                throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<URL> urls = new ArrayList<>();
        Deque<File> dirs = new ArrayDeque<>(List.of(gradleLib));
        while (!dirs.isEmpty()) {
            File[] files = dirs.pop().listFiles();
            if (files == null) {
                continue;
            }
            for (File file : files) {
                if (file.isDirectory()) {
                    dirs.push(file);
                } else if (file.getName().endsWith(".jar")) {
                    urls.add(file.toURI().toURL());
                }
            }
        }
        ClassLoader gradle = new URLClassLoader(urls.toArray(new URL[0]),
                new URLClassLoader(deps.toArray(new URL[0]), ClassLoader.getPlatformClassLoader()));
        Set<String> missing = new TreeSet<>();
        int checked = 0;
        try (JarFile jar = new JarFile(plugin)) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                if (!entry.getName().endsWith(".class")) {
                    continue;
                }
                String className = entry.getName().substring(0, entry.getName().length() - 6).replace('/', '.');
                if (guarded.contains(className)) {
                    continue;
                }
                try (InputStream in = jar.getInputStream(entry)) {
                    for (String[] ref : references(new DataInputStream(in))) {
                        checked++;
                        String problem = check(gradle, ref);
                        if (problem != null) {
                            missing.add(className + ": " + problem);
                        }
                    }
                }
            }
        }
        for (String line : missing) {
            System.out.println("missing in " + gradleLib + ": " + line);
        }
        System.out.println("ApiCheck: " + checked + " references to org.gradle checked, " + missing.size() + " missing");
        System.exit(missing.isEmpty() ? 0 : 1);
    }

    /** {kind, owner, name, descriptor} of each org/gradle reference; kind is class, field or method. */
    private static List<String[]> references(DataInputStream in) throws IOException {
        in.readInt();
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        int[] tags = new int[count];
        String[] utf8 = new String[count];
        int[] a = new int[count];
        int[] b = new int[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            tags[i] = tag;
            switch (tag) {
                case UTF8 -> utf8[i] = in.readUTF();
                case CLASS, 8, 16, 19, 20 -> a[i] = in.readUnsignedShort();
                case 15 -> { in.readUnsignedByte(); in.readUnsignedShort(); }
                case FIELD, METHOD, IMETHOD, NAME_AND_TYPE, 17, 18 -> {
                    a[i] = in.readUnsignedShort();
                    b[i] = in.readUnsignedShort();
                }
                case 3, 4 -> in.readInt();
                case 5, 6 -> { in.readLong(); i++; }
                default -> throw new IOException("constant #" + i + " has unknown tag " + tag);
            }
        }
        List<String[]> refs = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            if (tags[i] == CLASS) {
                String name = utf8[a[i]];
                if (name.startsWith("org/gradle/")) {
                    refs.add(new String[] {"class", name, null, null});
                }
            } else if (tags[i] == FIELD || tags[i] == METHOD || tags[i] == IMETHOD) {
                String owner = utf8[a[a[i]]];
                if (owner.startsWith("org/gradle/")) {
                    int nat = b[i];
                    refs.add(new String[] {tags[i] == FIELD ? "field" : "method", owner, utf8[a[nat]], utf8[b[nat]]});
                }
            }
        }
        return refs;
    }

    private static String check(ClassLoader gradle, String[] ref) {
        String owner = ref[1].replace('/', '.');
        Class<?> type;
        try {
            type = Class.forName(owner, false, gradle);
        } catch (ClassNotFoundException | LinkageError e) {
            return "class " + owner;
        }
        if (ref[0].equals("class")) {
            return null;
        }
        String description = owner + "." + ref[2] + ref[3];
        try {
            if (ref[0].equals("field")) {
                return hasField(type, ref[2], ref[3]) ? null : "field " + description;
            }
            return hasMethod(type, ref[2], ref[3], new HashSet<>()) ? null : "method " + description;
        } catch (LinkageError e) {
            return description + " (cannot inspect: " + e + ")";
        }
    }

    private static boolean hasField(Class<?> type, String name, String descriptor) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (field.getName().equals(name) && descriptor(field.getType()).equals(descriptor)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean hasMethod(Class<?> type, String name, String descriptor, Set<Class<?>> seen) {
        if (type == null || !seen.add(type)) {
            return false;
        }
        if (name.equals("<init>")) {
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                if (descriptor(constructor.getParameterTypes(), void.class).equals(descriptor)) {
                    return true;
                }
            }
            return false;
        }
        for (Method method : type.getDeclaredMethods()) {
            if (method.getName().equals(name)
                    && descriptor(method.getParameterTypes(), method.getReturnType()).equals(descriptor)) {
                return true;
            }
        }
        if (hasMethod(type.getSuperclass(), name, descriptor, seen)) {
            return true;
        }
        for (Class<?> i : type.getInterfaces()) {
            if (hasMethod(i, name, descriptor, seen)) {
                return true;
            }
        }
        // Methods of Object are members of interfaces too (JLS 9.2).
        return type.isInterface() && hasMethod(Object.class, name, descriptor, seen);
    }

    private static String descriptor(Class<?>[] parameters, Class<?> result) {
        StringBuilder out = new StringBuilder("(");
        Arrays.stream(parameters).map(ApiCheck::descriptor).forEach(out::append);
        return out.append(')').append(descriptor(result)).toString();
    }

    private static String descriptor(Class<?> type) {
        if (type.isArray()) {
            return type.getName().replace('.', '/');
        } else if (!type.isPrimitive()) {
            return "L" + type.getName().replace('.', '/') + ";";
        }
        return switch (type.getName()) {
            case "void" -> "V";
            case "boolean" -> "Z";
            case "byte" -> "B";
            case "char" -> "C";
            case "short" -> "S";
            case "int" -> "I";
            case "long" -> "J";
            case "float" -> "F";
            case "double" -> "D";
            default -> throw new IllegalArgumentException(type.getName());
        };
    }
}
