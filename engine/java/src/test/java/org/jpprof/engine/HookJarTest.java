package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.jpprof.engine.hooked.HookRecorder;
import org.jpprof.engine.hooked.HookTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HookJarTest {
    @TempDir Path dir;

    private static final String[] CLASSES = {HookTarget.class.getName(), HookRecorder.class.getName()};

    @Test
    void hooked_constructors_should_pass_the_verifier_and_hand_each_new_object_to_the_hook() throws Exception {
        Path jar = library();
        byte[] original = Files.readAllBytes(jar);
        Path hooked = Engine.load().hookJar(request(jar, "attach"));
        assertArrayEquals(original, Files.readAllBytes(jar), "the library jar is never written");
        // A loader of its own, without the test class path: both classes come from the copy and
        // are verified as they are defined.
        try (URLClassLoader loader = new URLClassLoader(new URL[] {hooked.toUri().toURL()}, null)) {
            Class<?> target = loader.loadClass(HookTarget.class.getName());
            target.getConstructor().newInstance();
            target.getConstructor(String.class).newInstance("");
            target.getConstructor(String.class).newInstance("named");
            Object seen = loader.loadClass(HookRecorder.class.getName()).getField("SEEN").get(null);
            // The delegating constructor calls the hook after the one it delegates to did.
            assertEquals(Arrays.asList("default", "default", "empty", "named"), (List<?>) seen);
        }
    }

    @Test
    void a_copy_in_place_should_be_reused_and_another_hook_should_get_another_copy() throws IOException {
        Path jar = library();
        Path first = Engine.load().hookJar(request(jar, "attach"));
        long written = Files.getLastModifiedTime(first).toMillis();
        assertEquals(first, Engine.load().hookJar(request(jar, "attach")));
        assertEquals(written, Files.getLastModifiedTime(first).toMillis());
        assertNotEquals(first, Engine.load().hookJar(request(jar, "other")));
        assertTrue(first.getFileName().toString().startsWith("library-jp-"), first.toString());
    }

    @Test
    void a_jar_without_the_class_should_be_refused_naming_the_jar() throws IOException {
        Path jar = library();
        EngineException e = assertThrows(EngineException.class, () -> Engine.load().hookJar(
                new HookJarRequest(jar, "org.example.Missing", HookRecorder.class.getName(), "attach",
                        dir.resolve("hooked"))));
        assertTrue(e.getMessage().contains(jar + ": has no org/example/Missing.class"), e.getMessage());
    }

    private HookJarRequest request(Path jar, String method) {
        return new HookJarRequest(jar, HookTarget.class.getName(), HookRecorder.class.getName(), method,
                dir.resolve("hooked"));
    }

    /** A jar of the two classes, as the test's compiler wrote them. */
    private Path library() throws IOException {
        Path jar = dir.resolve("library.jar");
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file)) {
            for (String name : CLASSES) {
                String entry = name.replace('.', '/') + ".class";
                out.putNextEntry(new JarEntry(entry));
                try (InputStream in = HookJarTest.class.getClassLoader().getResourceAsStream(entry)) {
                    byte[] buffer = new byte[8192];
                    for (int n; (n = in.read(buffer)) > 0; ) out.write(buffer, 0, n);
                }
                out.closeEntry();
            }
        }
        return jar;
    }
}
