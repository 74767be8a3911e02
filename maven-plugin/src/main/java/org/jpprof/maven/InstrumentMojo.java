package org.jpprof.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * Instruments the compiler output ({@code target/classes}) into {@code target/jp/classes}, with
 * the engine's content-hash cache in {@code target/jp/cache/classes}, and sets the properties
 * that make Surefire run the tests on the instrumented classes with JP's runtime
 * ({@link TestProperties}). The compiler output, and so the packaged jar, is left as it was.
 *
 * <p>The modules of the build that the project's tests depend on are instrumented too, each into
 * {@code target/jp/deps/}, and the tests run on those copies ({@link ReactorDependencies}); the
 * modules' own outputs and jars are left as they were.
 *
 * <p>Only classes whose bytes changed since the last run are rewritten. A class file that cannot
 * be read fails the goal with a message naming it; a method that cannot be instrumented is kept
 * as it was, with a warning.
 */
@Mojo(name = "instrument", defaultPhase = LifecyclePhase.PROCESS_CLASSES, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public class InstrumentMojo extends AbstractInstrumentMojo {
    /**
     * Whether the modules of the build that the tests depend on (their {@code target/classes} or
     * packaged jars, as the reactor hands them over) run instrumented in this project's tests too.
     * Third-party dependencies are never instrumented.
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.reactorDependencies", defaultValue = "true")
    protected boolean reactorDependencies;

    @Override
    protected void run() throws MojoExecutionException, MojoFailureException {
        boolean own = hasClasses(classesDirectory, project.getCompileSourceRoots(), "compile");
        List<ReactorDependencies.Dependency> dependencies = reactorDependencies
                ? ReactorDependencies.of(project.getArtifacts(), session.getProjects(), jpDirectory)
                : Collections.<ReactorDependencies.Dependency>emptyList();
        if (!own && dependencies.isEmpty()) {
            getLog().info("jp: no classes in " + relative(classesDirectory) + "; nothing to instrument");
            skipped();
            return;
        }
        File output = new File(jpDirectory, "classes");
        if (own) {
            instrument(classesDirectory, output, "classes");
        }
        for (ReactorDependencies.Dependency dependency : dependencies) {
            instrument(dependency.input, dependency.output, dependency.cacheName);
        }
        setUpTestRun();
        setProperties(TestProperties.reactorDependencies(project.getProperties(), session.getUserProperties(), dependencies));
        if (own) {
            setProperties(Collections.singletonMap(TestProperties.CLASSES, output.getAbsolutePath()));
        }
        // jp:instrument-test, later in the build, points this at the instrumented test classes.
        setProperties(TestProperties.original(project.getProperties(), classesDirectory, testClassesDirectory));
        if (!classesDirectoryByFork && !surefireUsesInstrumentedClasses()) {
            getLog().info("jp: Surefire's classesDirectory is not ${" + TestProperties.CLASSES + "}, so the tests "
                    + "run on " + relative(classesDirectory) + " (see docs/maven.md for the POM snippet)");
        }
    }

    @Override
    protected String goalName() {
        return "instrument";
    }

    /** Whether Surefire's configuration, or one of its executions', names {@code jp.classesDirectory}. */
    private boolean surefireUsesInstrumentedClasses() {
        Plugin surefire = project.getPlugin("org.apache.maven.plugins:maven-surefire-plugin");
        if (surefire == null) {
            return false;
        }
        List<Object> configurations = new ArrayList<>();
        configurations.add(surefire.getConfiguration());
        for (PluginExecution execution : surefire.getExecutions()) {
            configurations.add(execution.getConfiguration());
        }
        for (Object configuration : configurations) {
            if (configuration instanceof Xpp3Dom) {
                Xpp3Dom classes = ((Xpp3Dom) configuration).getChild("classesDirectory");
                if (classes != null && classes.getValue() != null
                        && classes.getValue().contains(TestProperties.CLASSES)) {
                    return true;
                }
            }
        }
        return false;
    }
}
