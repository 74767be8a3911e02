package org.jpprof.engine;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/** Class paths with instrumented directories in place of the compiler's, for the build plugins. */
public final class Classpaths {
    private Classpaths() {}

    /**
     * Replaces class directories by their instrumented directories and appends JP's jars.
     * An instrumented directory takes the place of the first class directory that maps to it (a
     * Gradle source set with Java and Kotlin has two, instrumented into one); the others are
     * dropped. Everything else keeps its place.
     *
     * @param classpath the class path
     * @param instrumented for each class directory (absolute), the directory its classes are
     *     instrumented into
     * @param jars JP's jars: the runtime's, and the test listeners' for a test class path
     * @return the new class path, without duplicates
     */
    public static List<File> swap(Iterable<File> classpath, Map<File, File> instrumented, File... jars) {
        Set<File> out = new LinkedHashSet<>();
        for (File file : classpath) {
            File replacement = instrumented.get(file.getAbsoluteFile());
            out.add(replacement == null ? file : replacement);
        }
        out.addAll(Arrays.asList(jars));
        return new ArrayList<>(out);
    }

    /**
     * The first jar of a class path that holds a file, for example the jar of a library's class.
     *
     * @param classpath the class path
     * @param entry the file's path in the jar, {@code org/junit/runner/notification/RunNotifier.class}
     * @return the jar, or {@code null} when no jar holds it (directories are not searched)
     * @throws IOException if a jar that exists cannot be read
     */
    public static File jarHolding(Iterable<File> classpath, String entry) throws IOException {
        for (File file : classpath) {
            if (!file.isFile()) continue;
            try (ZipFile jar = new ZipFile(file)) {
                if (jar.getEntry(entry) != null) return file;
            } catch (ZipException e) {
                // Not an archive: not a jar that holds it.
            }
        }
        return null;
    }
}
