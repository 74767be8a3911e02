package org.jpprof.maven;

import java.io.File;
import java.util.Collections;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * Instruments the compiled tests ({@code target/test-classes}) into {@code target/jp/test-classes},
 * so that the profile counts the test code too, and sets {@code jp.testClassesDirectory} for
 * Surefire's {@code testClassesDirectory}. It runs after the tests are compiled
 * ({@code process-test-classes}); {@code jp:instrument} still handles the application's classes.
 */
@Mojo(name = "instrument-test", defaultPhase = LifecyclePhase.PROCESS_TEST_CLASSES, threadSafe = true)
public class InstrumentTestMojo extends AbstractInstrumentMojo {
    @Override
    protected void run() throws MojoExecutionException, MojoFailureException {
        if (!hasClasses(testClassesDirectory, project.getTestCompileSourceRoots(), "test-compile")) {
            getLog().info("jp: no test classes in " + relative(testClassesDirectory) + "; nothing to instrument");
            skipped();
            return;
        }
        File output = new File(jpDirectory, "test-classes");
        instrument(testClassesDirectory, output, "test-classes");
        if (project.getProperties().getProperty(TestProperties.RUNTIME_JAR) == null) {
            setUpTestRun(); // jp:instrument did not run in this build
        }
        setProperties(Collections.singletonMap(TestProperties.TEST_CLASSES, output.getAbsolutePath()));
        setProperties(TestProperties.original(project.getProperties(), classesDirectory, testClassesDirectory));
    }

    @Override
    protected String goalName() {
        return "instrument-test";
    }
}
