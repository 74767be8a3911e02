package org.jpprof.gradle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded jar itself is only there after packaging; the gradle suite runs it. */
class RuntimeJarTest {
    private static final byte[] JAR = {'P', 'K', 3, 4, 42};

    @Test
    void runtime_jar_is_written_with_the_plugin_version_and_kept_when_unchanged(@TempDir Path dir)
            throws Exception {
        File jar = RuntimeJar.write(dir.resolve("runtime").toFile(), JAR);
        assertEquals("jp-runtime-" + Versions.plugin() + ".jar", jar.getName());
        assertArrayEquals(JAR, Files.readAllBytes(jar.toPath()));
        FileTime old = FileTime.fromMillis(0);
        Files.setLastModifiedTime(jar.toPath(), old);
        assertEquals(jar, RuntimeJar.write(jar.getParentFile(), JAR));
        assertEquals(old, Files.getLastModifiedTime(jar.toPath()));
    }

    @Test
    void other_bytes_are_written_over_and_no_temporary_file_is_left(@TempDir Path dir) throws Exception {
        File jar = RuntimeJar.write(dir.toFile(), new byte[] {1, 2, 3});
        RuntimeJar.write(dir.toFile(), JAR);
        assertArrayEquals(JAR, Files.readAllBytes(jar.toPath()));
        assertEquals(1, dir.toFile().list().length);
    }
}
