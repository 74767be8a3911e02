package org.jpprof.maven;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The plugin's own version, written into {@code jp-maven-plugin.properties} by the build. */
final class Versions {
    private static volatile String plugin;

    private Versions() {}

    /** @return the version of this plugin, for example {@code 0.1.0} */
    static String plugin() {
        String version = plugin;
        if (version == null) {
            Properties properties = new Properties();
            try (InputStream in = Versions.class.getResourceAsStream("jp-maven-plugin.properties")) {
                if (in == null) {
                    throw new IllegalStateException("jp: jp-maven-plugin.properties is missing from the plugin jar");
                }
                properties.load(in);
            } catch (IOException e) {
                throw new IllegalStateException("jp: cannot read jp-maven-plugin.properties: " + e, e);
            }
            version = properties.getProperty("version");
            plugin = version;
        }
        return version;
    }
}
