package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded jar itself is only there after packaging; the gradle and maven-plugin suites run it. */
class RuntimeJarTest {
    private static final byte[] JAR = {'P', 'K', 3, 4, 42};

    @Test
    void runtime_jar_is_written_with_the_version_and_kept_when_unchanged(@TempDir Path dir) throws Exception {
        Path jar = RuntimeJar.write(dir.resolve("runtime"), "jp-runtime", "1.2.3", JAR);
        assertEquals("jp-runtime-1.2.3.jar", jar.getFileName().toString());
        assertTrue(jar.isAbsolute());
        assertArrayEquals(JAR, Files.readAllBytes(jar));
        FileTime old = FileTime.fromMillis(0);
        Files.setLastModifiedTime(jar, old);
        assertEquals(jar, RuntimeJar.write(jar.getParent(), "jp-runtime", "1.2.3", JAR));
        assertEquals(old, Files.getLastModifiedTime(jar));
    }

    @Test
    void other_bytes_are_written_over_and_no_temporary_file_is_left(@TempDir Path dir) throws Exception {
        Path jar = RuntimeJar.write(dir, "jp-runtime", "1", new byte[] {1, 2, 3});
        RuntimeJar.write(dir, "jp-runtime", "1", JAR);
        assertArrayEquals(JAR, Files.readAllBytes(jar));
        assertEquals(1, dir.toFile().list().length);
    }

    @Test
    void unwritable_directory_fails_naming_the_jar(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("file");
        Files.write(file, new byte[] {0});
        EngineException e = assertThrows(EngineException.class, () -> RuntimeJar.write(file, "jp-runtime", "1", JAR));
        assertTrue(e.getMessage().startsWith(file.resolve("jp-runtime-1.jar") + ": "), e.getMessage());
    }
}
