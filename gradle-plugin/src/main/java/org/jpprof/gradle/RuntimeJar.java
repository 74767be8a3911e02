package org.jpprof.gradle;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import org.gradle.api.GradleException;

/**
 * JP's runtime jar, for the class path of the JVMs that run instrumented classes.
 *
 * <p>The plugin jar carries it as a resource ({@code org/jpprof/gradle/jp-runtime.jar}, put there
 * by the Maven build), so it always has the plugin's version and needs no repository. It is not
 * taken from the build script's class path: Gradle 6.6 and later rewrite the classes of that
 * class path for their own bookkeeping, and those copies would not run outside Gradle. The jar is
 * written into the project's build directory, where a test JVM or an IDE can find it.
 */
final class RuntimeJar {
    private static final String RESOURCE = "jp-runtime.jar";

    private RuntimeJar() {}

    /**
     * Writes the runtime jar into {@code dir}, unless the same bytes are there already.
     *
     * @param dir the directory, created when missing
     * @return the jar, {@code dir/jp-runtime-<version>.jar}
     * @throws GradleException if the jar cannot be written
     */
    static File extractTo(File dir) {
        return write(dir, bytes());
    }

    /**
     * Writes {@code bytes} as the runtime jar into {@code dir}, unless they are there already.
     *
     * @param dir the directory, created when missing
     * @param bytes the jar's bytes
     * @return the jar, {@code dir/jp-runtime-<version>.jar}
     * @throws GradleException if the jar cannot be written
     */
    static File write(File dir, byte[] bytes) {
        File jar = new File(dir, "jp-runtime-" + Versions.plugin() + ".jar");
        try {
            Path target = jar.toPath();
            if (Files.isRegularFile(target)
                    && Files.size(target) == bytes.length
                    && Arrays.equals(Files.readAllBytes(target), bytes)) {
                return jar;
            }
            Files.createDirectories(dir.toPath());
            Path temp = Files.createTempFile(dir.toPath(), ".jp-runtime", ".tmp");
            try {
                Files.write(temp, bytes);
                try {
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new GradleException("jp: cannot write the runtime jar " + jar + ": " + e, e);
        }
        return jar;
    }

    private static byte[] bytes() {
        try (InputStream in = RuntimeJar.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new GradleException(
                        "jp: the plugin jar has no org/jpprof/gradle/" + RESOURCE
                                + "; it was not built by JP's Maven build");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
            byte[] buffer = new byte[16 * 1024];
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new GradleException("jp: cannot read the runtime jar from the plugin jar: " + e, e);
        }
    }
}
