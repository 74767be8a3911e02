package org.jpprof.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Paths;
import java.security.CodeSource;

/** What this jar carries besides its classes: the engine's library and the runtime jar. */
final class JarResources {
    private JarResources() {}

    /**
     * The bytes of one of this package's resources.
     *
     * @param name the resource's name, relative to this package unless it starts with {@code /}
     * @return its bytes, or {@code null} when the jar has no such resource
     * @throws IOException if it cannot be read
     */
    static byte[] read(String name) throws IOException {
        try (InputStream in = JarResources.class.getResourceAsStream(name)) {
            if (in == null) {
                return null;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
            byte[] buffer = new byte[1 << 16];
            for (int read; (read = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, read);
            }
            return out.toByteArray();
        }
    }

    /**
     * Whether this jar has a resource, without reading it.
     *
     * @param name as for {@link #read(String)}
     * @return whether it is there
     */
    static boolean has(String name) {
        return JarResources.class.getResource(name) != null;
    }

    /** @return where this jar is, so that a broken one is named in errors */
    static String jar() {
        CodeSource source = JarResources.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return "jp-engine";
        }
        try {
            return Paths.get(source.getLocation().toURI()).toString();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return source.getLocation().toString();
        }
    }
}
