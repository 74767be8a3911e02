package org.jpprof.maven;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * What {@code jp:baseline} and {@code jp:check} share: the profiles of the module's test run (as
 * {@code jp:report} finds them), the baseline file, and the instrumentation settings it records
 * (docs/regression-testing.md). The engine does the work; the goals only wire.
 */
abstract class AbstractGateMojo extends AbstractJpMojo {
    /**
     * The baseline file: the exact counts of a run's tests and methods, committed next to the code.
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.baseline", defaultValue = "${project.basedir}/jp-baseline.txt", required = true)
    protected File baseline;

    /**
     * The include patterns the classes were instrumented with; the same setting, and property, as
     * {@code jp:instrument}'s. The baseline records them and a check refuses other ones.
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.includes")
    protected List<String> includes;

    /**
     * The exclude patterns the classes were instrumented with, as {@code jp:instrument}'s.
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.excludes")
    protected List<String> excludes;

    /**
     * Where {@code jp:baseline} keeps a copy of the profiles it recorded, replaced at each run, for
     * {@code jp:check} to diff against; build output, never committed.
     *
     * @since 0.1.0
     */
    @Parameter(
            property = "jp.baselineProfiles",
            defaultValue = "${project.build.directory}/jp/baseline-profiles",
            required = true)
    protected File baselineProfiles;

    @Override
    protected final void run() throws MojoExecutionException, MojoFailureException {
        List<Path> profiles = new ArrayList<>();
        for (File profile : ReportMojo.profilesOf(project)) {
            profiles.add(profile.toPath());
        }
        gate(profiles);
    }

    /**
     * The goal's work on the profiles of the module's run.
     *
     * @param profiles the profiles, in name order; empty when the tests wrote none
     */
    protected abstract void gate(List<Path> profiles) throws MojoExecutionException, MojoFailureException;

    /** The include patterns, trimmed, without empty items. */
    protected List<String> includePatterns() {
        return EngineCalls.Settings.patterns(includes);
    }

    /** The exclude patterns, trimmed, without empty items. */
    protected List<String> excludePatterns() {
        return EngineCalls.Settings.patterns(excludes);
    }
}
