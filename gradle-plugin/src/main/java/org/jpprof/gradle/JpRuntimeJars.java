package org.jpprof.gradle;

import java.io.File;
import org.gradle.api.DefaultTask;
import org.gradle.api.GradleException;
import org.gradle.api.tasks.Input;
import org.gradle.api.tasks.OutputDirectory;
import org.gradle.api.tasks.TaskAction;
import org.jpprof.engine.Engine;
import org.jpprof.engine.EngineException;
import org.jpprof.engine.RuntimeJar;

/**
 * Writes JP's runtime jar and the test listeners' jar into {@code build/jp/runtime}, for the class
 * paths of the test task and of IDE runs, which name them before they exist. A task, not a step
 * of configuring those class paths: with the configuration cache, configuration runs before
 * {@code clean}, which would delete the jars again.
 */
public class JpRuntimeJars extends DefaultTask {
    private File outputDir;

    /** @return the directory of the jars */
    @OutputDirectory
    public File getOutputDir() {
        return outputDir;
    }

    /** @param outputDir the directory of the jars */
    public void setOutputDir(File outputDir) {
        this.outputDir = outputDir;
    }

    /** @return the version of the jars, which are the plugin's own */
    @Input
    public String getVersion() {
        return Engine.facadeVersion();
    }

    /** Writes both jars (unless the same bytes are there already). */
    @TaskAction
    public void write() {
        try {
            RuntimeJar.extractTo(outputDir.toPath());
            RuntimeJar.extractListenersTo(outputDir.toPath());
        } catch (EngineException e) {
            throw new GradleException("jp: " + e.getMessage(), e);
        }
    }
}
