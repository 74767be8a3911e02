package org.jpprof.maven;

import java.util.Collections;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.project.MavenProject;

/**
 * Profiles a project's tests once, with nothing of JP's in its POM:
 * {@code mvn org.jpprof:jp-maven-plugin:<version>:profile}. It forks the build's lifecycle up to
 * {@code test} with the lifecycle {@code jp} of this plugin ({@code META-INF/maven/lifecycle.xml}),
 * which adds {@code jp:instrument} at {@code process-classes} and gives Surefire's
 * {@code classesDirectory} the instrumented classes; then it writes the report of that test run as
 * {@code jp:report} does, for this module.
 *
 * <p>A fork, rather than a goal given before the phases ({@code mvn jp:prepare verify}), because
 * Surefire has no property for {@code classesDirectory}: only the POM, or a forked lifecycle's
 * configuration, can point it elsewhere. The fork works on a copy of the project, so the
 * {@code package} phase of a build that goes on afterwards packages the compiler's classes.
 */
@Mojo(name = "profile", threadSafe = true)
@Execute(phase = LifecyclePhase.TEST, lifecycle = "jp")
public class ProfileMojo extends ReportMojo {
    @Override
    protected void run() throws MojoExecutionException {
        if ("pom".equals(project.getPackaging())) {
            getLog().info("jp: " + project.getArtifactId() + " is a pom module, with no tests to profile");
            return;
        }
        MavenProject forked = project.getExecutionProject();
        String run = forked == null ? null : forked.getProperties().getProperty(AbstractInstrumentMojo.PROFILES_RUN);
        if (run != null) {
            setProperties(Collections.singletonMap(AbstractInstrumentMojo.PROFILES_RUN, run));
        }
        super.run();
    }

    /** This module alone: each module of a multi-module build is forked and reported on its own. */
    @Override
    protected List<MavenProject> projects() {
        return Collections.singletonList(project);
    }
}
