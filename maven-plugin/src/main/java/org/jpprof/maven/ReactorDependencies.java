package org.jpprof.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.project.MavenProject;

/**
 * The modules of the build among a project's test dependencies, whose classes {@code jp:instrument}
 * instruments for the project's tests (docs/maven.md, "Several modules"). The reactor hands such a
 * dependency over as its module's {@code target/classes} (up to {@code test}) or its packaged jar
 * (from {@code package} on); either is instrumented into a directory of the project's
 * {@code jpDirectory}, and the tests get that copy in place of the original. Third-party artifacts
 * are never chosen: only files the build itself produced.
 */
final class ReactorDependencies {
    private ReactorDependencies() {}

    /** One dependency to instrument, and where its instrumented copy goes. */
    static final class Dependency {
        /** {@code groupId:artifactId}, as Surefire's {@code classpathDependencyExcludes} names it. */
        final String id;
        /** The reactor's file: a class directory or a jar. */
        final File input;
        /** The directory the engine writes into. */
        final File output;
        /** The engine's cache, relative to {@code jpDirectory/cache}. */
        final String cacheName;
        /** What goes on the test class path: {@link #output}, or the jar in it. */
        final File classpathElement;

        private Dependency(Artifact artifact, File jpDirectory) {
            String key = artifact.getGroupId() + "." + artifact.getArtifactId()
                    + (artifact.hasClassifier() ? "-" + artifact.getClassifier() : "");
            String kind = artifact.getFile().isDirectory() ? "classes" : "jar";
            this.id = artifact.getGroupId() + ":" + artifact.getArtifactId();
            this.input = artifact.getFile();
            this.cacheName = "deps/" + key + "/" + kind;
            this.output = new File(jpDirectory, cacheName);
            this.classpathElement = input.isDirectory() ? output : new File(output, input.getName());
        }
    }

    /**
     * The dependencies to instrument.
     *
     * @param artifacts the project's resolved test class path ({@code project.getArtifacts()})
     * @param reactor the projects of the build ({@code session.getProjects()})
     * @param jpDirectory the project's {@code jpDirectory}
     * @return the artifacts that are modules of the build, and whose file is a class directory or
     *     a jar, in the order of {@code artifacts}
     */
    static List<Dependency> of(Collection<Artifact> artifacts, Collection<MavenProject> reactor, File jpDirectory) {
        Set<String> modules = new HashSet<>();
        for (MavenProject module : reactor) {
            modules.add(module.getGroupId() + ":" + module.getArtifactId() + ":" + module.getVersion());
        }
        List<Dependency> dependencies = new ArrayList<>();
        for (Artifact artifact : artifacts) {
            File file = artifact.getFile();
            boolean built = modules.contains(artifact.getGroupId() + ":" + artifact.getArtifactId() + ":"
                    + artifact.getBaseVersion());
            if (built && file != null && (file.isDirectory() || file.isFile() && file.getName().endsWith(".jar"))) {
                dependencies.add(new Dependency(artifact, jpDirectory));
            }
        }
        return dependencies;
    }
}
