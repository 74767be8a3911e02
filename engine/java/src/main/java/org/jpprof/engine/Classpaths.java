package org.jpprof.engine;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
}
