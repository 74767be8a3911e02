package org.jpprof.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * JP's runtime jar ({@code jp-runtime}), for the class path of the JVMs that run instrumented
 * classes: test JVMs forked by a build, or an IDE's run configuration; and JP's test listeners
 * ({@code jp-junit}), which give each test its own context, for test class paths.
 *
 * <p>This jar carries them as the resources {@code org/jpprof/engine/jp-runtime.jar} and
 * {@code org/jpprof/engine/jp-junit.jar} (copied there by the Maven build), so a build plugin always hands out the runtime of its own version and needs
 * no repository for it, and the user declares nothing. It is not taken from a plugin class path:
 * Gradle 6.6 and later rewrite the classes of a build script's class path for their own
 * bookkeeping, and such copies would not run outside Gradle. The jar is written into the build's
 * own directory, where a test JVM or an IDE can find it.
 */
public final class RuntimeJar {
    private static final String RUNTIME = "jp-runtime";
    private static final String LISTENERS = "jp-junit";

    private RuntimeJar() {}

    /**
     * Writes the runtime jar into {@code dir}, unless the same bytes are there already (so the
     * file's time changes only when the runtime did).
     *
     * @param dir the directory, created when missing
     * @return the jar, {@code dir/jp-runtime-<version>.jar}
     * @throws EngineException if this jar has no runtime inside or the file cannot be written;
     *     the message names the file
     */
    public static Path extractTo(Path dir) {
        return write(dir, RUNTIME, Engine.facadeVersion(), bytes(RUNTIME));
    }

    /**
     * Writes the test listeners' jar into {@code dir}, unless the same bytes are there already.
     *
     * @param dir the directory, created when missing
     * @return the jar, {@code dir/jp-junit-<version>.jar}
     * @throws EngineException if this jar has no listeners inside or the file cannot be written;
     *     the message names the file
     */
    public static Path extractListenersTo(Path dir) {
        return write(dir, LISTENERS, Engine.facadeVersion(), bytes(LISTENERS));
    }

    /**
     * Where {@link #extractTo} puts the runtime jar, for a class path set up before it runs.
     *
     * @param dir the directory
     * @return {@code dir/jp-runtime-<version>.jar}, absolute
     */
    public static Path runtimeJarIn(Path dir) {
        return jarIn(dir, RUNTIME, Engine.facadeVersion());
    }

    /**
     * Where {@link #extractListenersTo} puts the test listeners' jar.
     *
     * @param dir the directory
     * @return {@code dir/jp-junit-<version>.jar}, absolute
     */
    public static Path listenersJarIn(Path dir) {
        return jarIn(dir, LISTENERS, Engine.facadeVersion());
    }

    private static Path jarIn(Path dir, String name, String version) {
        return dir.resolve(name + "-" + version + ".jar").toAbsolutePath();
    }

    /**
     * Writes {@code bytes} as the jar {@code name} of {@code version} into {@code dir}, unless
     * they are there already. The file appears whole or not at all ({@link AtomicFiles}).
     *
     * @param dir the directory, created when missing
     * @param name the jar's artifact, {@code jp-runtime} or {@code jp-junit}
     * @param version the version in the file's name
     * @param bytes the jar's bytes
     * @return the jar, {@code dir/<name>-<version>.jar}
     * @throws EngineException if the jar cannot be written
     */
    static Path write(Path dir, String name, String version, byte[] bytes) {
        Path jar = jarIn(dir, name, version);
        try {
            if (Files.isRegularFile(jar)
                    && Files.size(jar) == bytes.length
                    && Arrays.equals(Files.readAllBytes(jar), bytes)) {
                return jar;
            }
            AtomicFiles.write(jar, bytes);
        } catch (IOException e) {
            throw new EngineException(jar + ": cannot write JP's " + name + " jar: " + e, e);
        }
        return jar;
    }

    private static byte[] bytes(String name) {
        String resource = name + ".jar";
        byte[] bytes;
        try {
            bytes = JarResources.read(resource);
        } catch (IOException e) {
            throw new EngineException("cannot read JP's " + name + " jar from jp-engine: " + e, e);
        }
        if (bytes == null) {
            throw new EngineException(JarResources.jar() + ": this jp-engine has no org/jpprof/engine/"
                    + resource + "; it was not packaged by JP's Maven build");
        }
        return bytes;
    }
}
