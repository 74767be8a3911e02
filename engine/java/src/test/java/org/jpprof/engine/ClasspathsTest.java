package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClasspathsTest {
    private static final File JAVA = new File("/p/build/classes/java/main").getAbsoluteFile();
    private static final File KOTLIN = new File("/p/build/classes/kotlin/main").getAbsoluteFile();
    private static final File RESOURCES = new File("/p/build/resources/main").getAbsoluteFile();
    private static final File LIB = new File("/m2/lib.jar").getAbsoluteFile();
    private static final File INSTRUMENTED = new File("/p/build/jp/classes/main").getAbsoluteFile();
    private static final File RUNTIME = new File("/p/build/jp/runtime/jp-runtime.jar").getAbsoluteFile();
    private static final File LISTENERS = new File("/p/build/jp/runtime/jp-junit.jar").getAbsoluteFile();

    @Test
    void instrumented_directory_takes_the_place_of_the_class_directory() {
        Map<File, File> instrumented = new HashMap<>();
        instrumented.put(JAVA, INSTRUMENTED);
        assertEquals(
                Arrays.asList(INSTRUMENTED, RESOURCES, LIB, RUNTIME),
                Classpaths.swap(Arrays.asList(JAVA, RESOURCES, LIB), instrumented, RUNTIME));
    }

    @Test
    void class_directories_of_one_source_set_become_one_instrumented_directory() {
        Map<File, File> instrumented = new HashMap<>();
        instrumented.put(JAVA, INSTRUMENTED);
        instrumented.put(KOTLIN, INSTRUMENTED);
        assertEquals(
                Arrays.asList(INSTRUMENTED, RESOURCES, RUNTIME),
                Classpaths.swap(Arrays.asList(JAVA, KOTLIN, RESOURCES), instrumented, RUNTIME));
    }

    @Test
    void class_path_without_instrumented_directories_only_gains_the_runtime() {
        assertEquals(
                Arrays.asList(JAVA, LIB, RUNTIME),
                Classpaths.swap(Arrays.asList(JAVA, LIB), new HashMap<File, File>(), RUNTIME));
    }

    @Test
    void a_test_class_path_gains_the_runtime_then_the_listeners_once() {
        assertEquals(
                Arrays.asList(JAVA, RUNTIME, LISTENERS),
                Classpaths.swap(Arrays.asList(JAVA, RUNTIME), new HashMap<File, File>(), RUNTIME, LISTENERS));
    }

    @Test
    void the_jar_holding_an_entry_is_found_past_directories_missing_files_and_other_files(@TempDir Path dir)
            throws IOException {
        File other = jar(dir.resolve("other.jar"), "a/B.class");
        File junit = jar(dir.resolve("junit.jar"), "org/junit/runner/notification/RunNotifier.class");
        File text = dir.resolve("notes.txt").toFile();
        Files.write(text.toPath(), "not a jar".getBytes(StandardCharsets.UTF_8));
        List<File> classpath = Arrays.asList(dir.toFile(), LIB, text, other, junit);
        assertEquals(junit, Classpaths.jarHolding(classpath, "org/junit/runner/notification/RunNotifier.class"));
        assertNull(Classpaths.jarHolding(classpath, "org/example/Missing.class"));
    }

    private static File jar(Path path, String entry) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(path))) {
            out.putNextEntry(new JarEntry(entry));
            out.closeEntry();
        }
        return path.toFile();
    }
}
