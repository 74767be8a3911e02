package org.jpprof.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.maven.model.Reporting;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.jpprof.engine.ProfileRuns;
import org.jpprof.engine.ReportRequest;

/**
 * Renders the profiles of the tests (this build's run under {@code target/jp/profiles/}, else the
 * newest run with profiles there) as
 * {@code target/site/jp/index.html} (an interactive call tree, flame graph and hot methods, in one
 * file) and {@code target/site/jp/report.txt}. The profiles of the test JVMs are merged by calling
 * context into one tree.
 *
 * <p>Run at the top of a multi-module build ({@code mvn verify jp:report}), it runs once, after
 * every module: each module with profiles gets its own report, and the top project's
 * {@code target/site/jp/} gets the report of all of them together. Bound to a phase in a module's
 * POM, it reports that module.
 *
 * <p>{@link SiteReportMojo} is the same report as a report of {@code mvn site}.
 */
@Mojo(name = "report", defaultPhase = LifecyclePhase.VERIFY, aggregator = true, threadSafe = true)
public class ReportMojo extends AbstractJpMojo {
    /** The projects of the build, for the report of them all. */
    @Parameter(defaultValue = "${reactorProjects}", readonly = true, required = true)
    protected List<MavenProject> reactorProjects;

    /** The directory of the report; for other modules, their own {@code target/site/jp}. */
    @Parameter(property = "jp.reportDirectory", defaultValue = "${project.reporting.outputDirectory}/jp", required = true)
    protected File outputDirectory;

    /** The metric the reports show first: {@code calls} or {@code bytecodes}. Unset: the report's default. */
    @Parameter(property = "jp.metric")
    protected String metric;

    @Override
    protected void run() throws MojoExecutionException {
        ReportRequest.Metric chosen = Reports.metric(metric);
        List<MavenProject> projects = projects();
        List<File> all = new ArrayList<>();
        for (MavenProject module : projects) {
            List<File> profiles = profilesOf(module);
            all.addAll(profiles);
            if (module != project && !profiles.isEmpty()) {
                write(profiles, chosen, reportDirectory(module), sourceRoots(Collections.singletonList(module)), module);
            }
        }
        if (all.isEmpty()) {
            getLog().warn("jp: no profiles in target/jp/profiles" + (projects.size() > 1 ? " of any module" : "")
                    + "; run the tests with jp:instrument first (docs/maven.md)");
            return;
        }
        write(all, chosen, outputDirectory, sourceRoots(projects), project);
    }

    /** The main source roots of {@code modules}: where the HTML report finds the hot methods' source. */
    static List<File> sourceRoots(List<MavenProject> modules) {
        List<File> roots = new ArrayList<>();
        for (MavenProject module : modules) {
            for (String root : module.getCompileSourceRoots()) {
                roots.add(new File(root));
            }
        }
        return roots;
    }

    /** The projects to report: the reactor's at its top, else this one. */
    protected List<MavenProject> projects() {
        return project.isExecutionRoot() && reactorProjects.size() > 1
                ? reactorProjects
                : Collections.singletonList(project);
    }

    private void write(
            List<File> profiles, ReportRequest.Metric chosen, File dir, List<File> sources, MavenProject module)
            throws MojoExecutionException {
        File html = new File(dir, "index.html");
        String title = module.getArtifactId();
        List<File> recordings = Reports.recordingsOf(profiles);
        Reports.report(profiles, ReportRequest.Format.HTML, chosen, title, sources, recordings, html);
        Reports.report(
                profiles, ReportRequest.Format.TEXT, chosen, title, sources, recordings, new File(dir, "report.txt"));
        getLog().info("jp: report of " + module.getArtifactId() + " (" + profiles.size() + " profile"
                + (profiles.size() == 1 ? "" : "s") + "): " + html.toURI());
    }

    /** Another module's report directory: its {@code target/site/jp}. */
    private static File reportDirectory(MavenProject module) {
        Reporting reporting = module.getModel().getReporting();
        String site = reporting == null ? null : reporting.getOutputDirectory();
        return new File(site != null ? site : module.getBuild().getDirectory() + "/site", "jp");
    }

    /**
     * The profiles of a project's test run in this build, else of its newest run with profiles, in name order.
     * This build's run ends here ({@link ProfileRuns#finish}).
     */
    static List<File> profilesOf(MavenProject module) throws MojoExecutionException {
        String started = module.getProperties().getProperty(AbstractInstrumentMojo.PROFILES_RUN);
        Path runs = new File(module.getBuild().getDirectory(), "jp/profiles").toPath();
        List<File> profiles = new ArrayList<>();
        try {
            Path run = started != null ? Paths.get(started) : ProfileRuns.latest(runs);
            for (Path profile : ProfileRuns.profiles(run)) {
                profiles.add(profile.toFile());
            }
            if (started != null) {
                ProfileRuns.finish(run);
            }
        } catch (IOException e) {
            throw new MojoExecutionException("jp: cannot list the profiles in " + runs + ": " + e, e);
        }
        return profiles;
    }
}
