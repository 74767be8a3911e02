package org.jpprof.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DefaultArtifact;
import org.apache.maven.artifact.handler.DefaultArtifactHandler;
import org.apache.maven.model.Model;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReactorDependenciesTest {
    @TempDir
    Path dir;

    private static MavenProject module(String groupId, String artifactId) {
        Model model = new Model();
        model.setGroupId(groupId);
        model.setArtifactId(artifactId);
        model.setVersion("1.0-SNAPSHOT");
        return new MavenProject(model);
    }

    private static Artifact artifact(String groupId, String artifactId, String classifier, File file) {
        Artifact artifact = new DefaultArtifact(groupId, artifactId, "1.0-SNAPSHOT", "test", "jar", classifier,
                new DefaultArtifactHandler("jar"));
        artifact.setFile(file);
        return artifact;
    }

    @Test
    void modules_of_the_build_are_chosen_and_third_party_jars_are_not() throws IOException {
        File classes = Files.createDirectories(dir.resolve("core/target/classes")).toFile();
        File jar = Files.createFile(dir.resolve("util-1.0-SNAPSHOT.jar")).toFile();
        File thirdParty = Files.createFile(dir.resolve("junit.jar")).toFile();
        File jp = new File("/p/app/target/jp");
        List<ReactorDependencies.Dependency> chosen = ReactorDependencies.of(
                Arrays.asList(artifact("org.acme", "core", null, classes), artifact("junit", "junit", null, thirdParty),
                        artifact("org.acme", "util", null, jar)),
                Arrays.asList(module("org.acme", "core"), module("org.acme", "util"), module("org.acme", "app")), jp);
        assertEquals(2, chosen.size());
        assertEquals("org.acme:core", chosen.get(0).id);
        assertEquals(new File(jp, "deps/org.acme.core/classes"), chosen.get(0).output);
        assertEquals(chosen.get(0).output, chosen.get(0).classpathElement);
        assertEquals("deps/org.acme.core/classes", chosen.get(0).cacheName);
        assertEquals("org.acme:util", chosen.get(1).id);
        assertEquals(new File(jp, "deps/org.acme.util/jar/util-1.0-SNAPSHOT.jar"), chosen.get(1).classpathElement);
    }

    @Test
    void a_module_not_built_yet_or_of_another_version_is_left_alone() throws IOException {
        File missing = dir.resolve("core/target/classes").toFile();
        File jar = Files.createFile(dir.resolve("core-tests.jar")).toFile();
        Artifact otherVersion = new DefaultArtifact("org.acme", "util", "0.9", "test", "jar", null,
                new DefaultArtifactHandler("jar"));
        otherVersion.setFile(jar);
        List<ReactorDependencies.Dependency> chosen = ReactorDependencies.of(
                Arrays.asList(artifact("org.acme", "core", null, missing), otherVersion,
                        artifact("org.acme", "core", "tests", jar)),
                Arrays.asList(module("org.acme", "core"), module("org.acme", "util")), new File("/p/target/jp"));
        assertEquals(1, chosen.size());
        assertEquals(new File("/p/target/jp/deps/org.acme.core-tests/jar/core-tests.jar"), chosen.get(0).classpathElement);
    }
}
