package org.jpprof.engine;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The version that a JP jar's build writes into a properties resource ({@code version=...}): the
 * facade's ({@code version.properties}) and each build plugin's ({@code <artifact>.properties}).
 */
final class VersionResource {
    private VersionResource() {}

    /**
     * Reads the version.
     *
     * @param anchor a class of the jar, beside which the resource lies
     * @param resource the resource's name, relative to {@code anchor}'s package
     * @param owner the jar's artifact, for messages
     * @return the version, for example {@code 0.1.0} or {@code 0.1.0-SNAPSHOT}
     * @throws EngineException naming the resource if it is missing, unreadable or has no version
     */
    static String read(Class<?> anchor, String resource, String owner) {
        String path = anchor.getPackage().getName().replace('.', '/') + "/" + resource;
        Properties properties = new Properties();
        try (InputStream in = anchor.getResourceAsStream(resource)) {
            if (in == null) {
                throw new EngineException("this " + owner + " has no " + path);
            }
            properties.load(in);
        } catch (IOException e) {
            throw new EngineException("cannot read " + owner + "'s " + path + ": " + e, e);
        }
        String version = properties.getProperty("version");
        if (version == null || version.isEmpty() || version.startsWith("${")) {
            throw new EngineException(owner + "'s " + path + " has no version: " + version);
        }
        return version;
    }
}
