package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

class EngineTest {
    @Test
    void version_should_round_trip_through_the_native_library() {
        Engine engine = Engine.load();
        assertEquals(Engine.engineVersionFor(Engine.facadeVersion()), engine.version());
        assertEquals(engine.version(), NativeEngine.version());
    }

    @Test
    void load_should_be_idempotent() {
        assertSame(Engine.load(), Engine.load());
    }

    @Test
    void the_library_should_be_extracted_under_its_content_hash() throws IOException {
        byte[] resource;
        try (InputStream in = Engine.class.getResourceAsStream(Platform.current().resource())) {
            assertTrue(in != null, "the build puts the library into the classes");
            resource = readAll(in);
        }
        Path library = Engine.load().library();
        assertEquals(Paths.get(System.getProperty(NativeLibrary.CACHE_DIR_PROPERTY)).toAbsolutePath()
                        .normalize(), library.getParent());
        String hash = NativeLibrary.sha256(resource);
        String name = library.getFileName().toString();
        assertTrue(name.startsWith(Platform.current().cachedPrefix(hash)), name);
        assertEquals(hash, NativeLibrary.sha256(Files.readAllBytes(library)));
    }

    @Test
    void facade_version_should_be_the_maven_version() {
        assertTrue(Engine.facadeVersion().matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"),
                Engine.facadeVersion());
    }

    @Test
    void engine_version_should_be_the_facade_version_without_snapshot() {
        assertEquals("0.1.0", Engine.engineVersionFor("0.1.0-SNAPSHOT"));
        assertEquals("0.1.0", Engine.engineVersionFor("0.1.0"));
        assertEquals("1.2.3-rc1", Engine.engineVersionFor("1.2.3-rc1"));
    }

    @Test
    void a_version_mismatch_should_name_both_versions_and_the_library() {
        Engine.checkVersion(Paths.get("/l.so"), "0.1.0-SNAPSHOT", "0.1.0");
        EngineException e = assertThrows(EngineException.class,
                () -> Engine.checkVersion(Paths.get("/c/libjp_jni-ab.so"), "0.2.0-SNAPSHOT", "0.1.0"));
        assertEquals("JP's engine library /c/libjp_jni-ab.so is version 0.1.0, but this jp-engine"
                + " 0.2.0-SNAPSHOT needs engine 0.2.0 (jars of different JP versions on one class"
                + " path?)", e.getMessage());
    }

    @Test
    void a_plugin_of_the_facade_version_should_pass_the_check() {
        Engine.checkPluginVersion(BuildPlugin.MAVEN, Engine.facadeVersion());
        Engine.checkPluginVersion(BuildPlugin.GRADLE, Engine.facadeVersion());
    }

    @Test
    void a_plugin_of_another_version_should_be_told_where_its_dependencies_are() {
        String facade = Engine.facadeVersion();
        EngineException maven = assertThrows(EngineException.class,
                () -> Engine.checkPluginVersion(BuildPlugin.MAVEN, "9.9.9"));
        assertEquals("jp-engine " + facade + " is on the plugin's class path, but this is"
                + " jp-maven-plugin 9.9.9; they must be the same version (check the plugin's"
                + " <dependencies> in the POM)", maven.getMessage());
        EngineException gradle = assertThrows(EngineException.class,
                () -> Engine.checkPluginVersion(BuildPlugin.GRADLE, "9.9.9"));
        assertEquals("jp-engine " + facade + " is on the build script's class path, but this is"
                + " jp-gradle-plugin 9.9.9; they must be the same version (check the buildscript"
                + " dependencies)", gradle.getMessage());
    }

    @Test
    void a_plugin_should_read_its_version_beside_its_classes() {
        assertEquals("1.2.3", BuildPlugin.GRADLE.version(EngineTest.class));
    }

    @Test
    void a_missing_or_unfilled_version_resource_should_be_named() {
        EngineException missing = assertThrows(EngineException.class,
                () -> BuildPlugin.MAVEN.version(EngineTest.class));
        assertEquals("this jp-maven-plugin has no org/jpprof/engine/jp-maven-plugin.properties",
                missing.getMessage());
        EngineException unfilled = assertThrows(EngineException.class,
                () -> VersionResource.read(EngineTest.class, "version-unfilled.properties", "jp-x"));
        assertEquals("jp-x's org/jpprof/engine/version-unfilled.properties has no version:"
                + " ${project.version}", unfilled.getMessage());
    }

    static byte[] readAll(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[1 << 16];
        for (int read; (read = in.read(buffer)) > 0; ) {
            out.write(buffer, 0, read);
        }
        return out.toByteArray();
    }
}
