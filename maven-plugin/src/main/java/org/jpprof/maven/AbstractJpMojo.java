package org.jpprof.maven;

import java.io.File;
import java.util.Map;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/** What every goal of JP has: the project, the session, and {@code jp.skip}. */
abstract class AbstractJpMojo extends AbstractMojo {
    /** The project the goal runs on. */
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    protected MavenProject project;

    /** The build. */
    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    protected MavenSession session;

    /**
     * Skips the goal, with a message. The instrument goals then point Surefire at the compiler's
     * classes, so the tests run as they would without JP.
     */
    @Parameter(property = "jp.skip", defaultValue = "false")
    protected boolean skip;

    @Override
    public final void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("jp: skipped (jp.skip is set)");
            skipped();
            return;
        }
        run();
    }

    /** The goal's work. */
    protected abstract void run() throws MojoExecutionException, MojoFailureException;

    /** What the goal still does when it is skipped; nothing unless overridden. */
    protected void skipped() throws MojoExecutionException {}

    /** Sets project properties, for the goals that run after this one. */
    protected void setProperties(Map<String, String> properties) {
        for (Map.Entry<String, String> property : properties.entrySet()) {
            project.getProperties().setProperty(property.getKey(), property.getValue());
            getLog().debug("jp: " + property.getKey() + "=" + property.getValue());
        }
    }

    /** {@code file} relative to the project's directory when it is inside it, for messages. */
    protected String relative(File file) {
        String base = project.getBasedir().getAbsolutePath() + File.separator;
        String path = file.getAbsolutePath();
        return path.startsWith(base) ? path.substring(base.length()) : path;
    }
}
