package org.jpprof.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.maven.plugin.MojoExecutionException;
import org.jpprof.engine.EngineException;
import org.jpprof.engine.ReportRequest;

/** The plugin's calls of the engine's report entry point ({@code Engine.report}). */
final class Reports {
    private Reports() {}

    /**
     * Merges profiles into one report.
     *
     * @param profiles the profiles
     * @param format the report's format
     * @param metric the metric to show first, or {@code null} for the report's default
     * @param title the report's title, the module's artifactId
     * @param out the report file
     * @throws MojoExecutionException if a profile cannot be read or the report cannot be
     *     written, naming the file
     */
    static void report(
            List<File> profiles, ReportRequest.Format format, ReportRequest.Metric metric, String title, File out)
            throws MojoExecutionException {
        ReportRequest.Builder request = ReportRequest.builder();
        for (File profile : profiles) {
            request.profile(profile.toPath());
        }
        request.format(format).title(title).out(out.toPath());
        if (metric != null) {
            request.metric(metric);
        }
        try {
            EngineCalls.engine().report(request.build());
        } catch (EngineException e) {
            throw new MojoExecutionException("jp: " + e.getMessage(), e);
        }
    }

    /**
     * The metric named by the goal's {@code metric} parameter.
     *
     * @param name {@code calls}, {@code bytecodes} or {@code null}
     * @return the metric, or {@code null}
     * @throws MojoExecutionException naming the metrics there are
     */
    static ReportRequest.Metric metric(String name) throws MojoExecutionException {
        if (name == null || name.trim().isEmpty()) {
            return null;
        }
        try {
            return ReportRequest.Metric.named(name);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("jp: " + e.getMessage(), e);
        }
    }
}
