package org.jpprof.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DefaultArtifact;
import org.apache.maven.artifact.handler.DefaultArtifactHandler;
import org.apache.maven.model.Model;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;

class TestPropertiesTest {
    private static final File JAR = new File("/p/target/jp/runtime/jp-runtime-1.jar");
    private static final File LISTENERS = new File("/p/target/jp/runtime/jp-junit-1.jar");

    @Test
    void runtime_is_added_to_surefires_own_properties_and_given_alone_too() {
        Properties project = new Properties();
        project.setProperty("argLine", "-Xmx1g");
        project.setProperty("maven.test.additionalClasspath", "/lib/extra.jar");
        Map<String, String> out = TestProperties.runtime(
                project, new Properties(), JAR, LISTENERS, Arrays.asList("-Djp.output=/p/target/jp/profiles/test-%p.jpprof", "-Djp.agent=none"));
        String jp = "-Djp.output=/p/target/jp/profiles/test-%p.jpprof -Djp.agent=none";
        assertEquals(jp, out.get("jp.argLine"));
        assertEquals(jp + " -Xmx1g", out.get("argLine"));
        assertEquals(JAR.getAbsolutePath(), out.get("jp.runtimeJar"));
        assertEquals(LISTENERS.getAbsolutePath(), out.get("jp.junitJar"));
        assertEquals("/lib/extra.jar," + JAR.getAbsolutePath() + "," + LISTENERS.getAbsolutePath(),
                out.get("maven.test.additionalClasspath"));
    }

    @Test
    void command_line_arg_line_is_the_one_composed_with() {
        Properties project = new Properties();
        project.setProperty("argLine", "-Xmx1g");
        Properties user = new Properties();
        user.setProperty("argLine", "-ea");
        Map<String, String> out = TestProperties.runtime(project, user, JAR, LISTENERS, Arrays.asList("-Djp.output=x"));
        assertEquals("-Djp.output=x -ea", out.get("argLine"));
    }

    @Test
    void running_twice_keeps_one_copy_of_jps_options() {
        Properties project = new Properties();
        project.setProperty("argLine", "-Xmx1g");
        project.putAll(TestProperties.runtime(project, new Properties(), JAR, LISTENERS, Arrays.asList("-Djp.output=x")));
        Map<String, String> again = TestProperties.runtime(project, new Properties(), JAR, LISTENERS, Arrays.asList("-Djp.output=x"));
        assertEquals("-Djp.output=x -Xmx1g", again.get("argLine"));
        assertEquals(JAR.getAbsolutePath() + "," + LISTENERS.getAbsolutePath(), again.get("maven.test.additionalClasspath"));
    }

    @Test
    void skipped_build_points_at_the_compilers_classes_and_keeps_what_was_set() {
        Properties project = new Properties();
        Map<String, String> out = TestProperties.original(project, new File("/p/target/classes"), new File("/p/target/test-classes"));
        assertEquals(new File("/p/target/classes").getAbsolutePath(), out.get("jp.classesDirectory"));
        assertEquals(new File("/p/target/test-classes").getAbsolutePath(), out.get("jp.testClassesDirectory"));
        assertEquals("", out.get("jp.argLine"));
        assertFalse(out.containsKey("argLine"));

        project.setProperty("jp.classesDirectory", "/p/target/jp/classes");
        out = TestProperties.original(project, new File("/p/target/classes"), new File("/p/target/test-classes"));
        assertFalse(out.containsKey("jp.classesDirectory"));
    }

    @Test
    void a_skipped_build_still_has_the_listeners_on_the_class_path_once() {
        Properties project = new Properties();
        project.setProperty("maven.test.additionalClasspath", "/lib/extra.jar");
        project.putAll(TestProperties.listeners(project, new Properties(), LISTENERS));
        Map<String, String> again = TestProperties.listeners(project, new Properties(), LISTENERS);
        assertEquals("/lib/extra.jar," + LISTENERS.getAbsolutePath(), again.get("maven.test.additionalClasspath"));
        assertEquals(LISTENERS.getAbsolutePath(), again.get("jp.junitJar"));
    }

    @Test
    void reactor_dependencies_are_excluded_and_their_copies_added_after_the_runtime() throws IOException {
        Path classes = Files.createTempDirectory("core-classes");
        try {
            Artifact core = new DefaultArtifact("org.acme", "core",
                    "1", "compile", "jar", null, new DefaultArtifactHandler("jar"));
            core.setFile(classes.toFile());
            Model model = new Model();
            model.setGroupId("org.acme");
            model.setArtifactId("core");
            model.setVersion("1");
            List<ReactorDependencies.Dependency> dependencies = ReactorDependencies.of(
                    Arrays.asList(core), Arrays.asList(new MavenProject(model)), new File("/p/target/jp"));
            Properties project = new Properties();
            project.putAll(TestProperties.runtime(project, new Properties(), JAR, LISTENERS, Arrays.asList("-Djp.output=x")));
            Properties user = new Properties();
            user.setProperty("maven.test.dependency.excludes", "org.other:lib");
            Map<String, String> out = TestProperties.reactorDependencies(project, user, dependencies);
            assertEquals("org.other:lib,org.acme:core", out.get("maven.test.dependency.excludes"));
            assertEquals(JAR.getAbsolutePath() + "," + LISTENERS.getAbsolutePath() + ","
                    + new File("/p/target/jp/deps/org.acme.core/classes").getAbsolutePath(), out.get("maven.test.additionalClasspath"));
            assertTrue(TestProperties.reactorDependencies(project, user, Collections.emptyList()).isEmpty());
        } finally {
            Files.delete(classes);
        }
    }
}
