package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
}
