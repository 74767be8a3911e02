package org.jpprof.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.jpprof.engine.CheckRequest;
import org.jpprof.engine.CheckResult;
import org.jpprof.engine.EngineException;
import org.jpprof.engine.ProfileRuns;

/**
 * Compares the profiles of the module's test run with the baseline file and fails the build when a
 * test's or a method's bytecodes grew beyond the tolerance, naming each with its numbers. Bound to
 * {@code verify} when listed in the POM's executions; the summaries (text, JSON, Markdown) go to
 * {@code target/jp/check}. When {@code jp:baseline} kept the profiles of the baseline's run, the
 * diff of them against this run goes to {@code target/site/jp/check-diff.html} and the failure
 * names it.
 *
 * @since 0.1.0
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class CheckMojo extends AbstractGateMojo {
    /**
     * How much a test's or a method's bytecodes may grow (or shrink) before the check says so, in
     * percent of its baseline count. Unset: the engine's default (1).
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.tolerance")
    protected Double tolerance;

    /**
     * Tolerances in percent by test or method pattern ({@code *} for any text), as
     * {@code <tolerances><tolerance><pattern>com.acme.SlowTest#*</pattern><percent>5</percent>
     * </tolerance></tolerances>}; the first pattern that matches applies.
     *
     * @since 0.1.0
     */
    @Parameter
    protected List<Tolerance> tolerances;

    /**
     * Patterns of the tests and methods left out of the check (comma-separated on the command line).
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.ignore")
    protected List<String> ignore;

    /**
     * Where the summaries go: {@code jp-check.txt}, {@code jp-check.json} and {@code jp-check.md}.
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.checkDirectory", defaultValue = "${project.build.directory}/jp/check", required = true)
    protected File checkDirectory;

    /**
     * The directory of JP's reports, as {@code jp:report}'s; when {@code jp:baseline} kept the
     * profiles of the baseline's run, the check writes the diff of them against this run there, as
     * {@code check-diff.html}.
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.reportDirectory", defaultValue = "${project.reporting.outputDirectory}/jp", required = true)
    protected File reportDirectory;

    @Override
    protected void gate(List<Path> profiles) throws MojoExecutionException, MojoFailureException {
        if (profiles.isEmpty()) {
            if (baseline.isFile()) {
                throw new MojoFailureException("jp: no profiles in target/jp/profiles to check against "
                        + relative(baseline) + "; run the tests with jp:instrument first (docs/maven.md)");
            }
            getLog().info("jp: no profiles and no baseline; nothing to check");
            return;
        }
        CheckResult result;
        try {
            result = EngineCalls.engine().check(request(profiles));
        } catch (EngineException | IllegalArgumentException e) {
            throw new MojoExecutionException("jp: " + e.getMessage(), e);
        }
        for (String line : result.summary().split("\n")) {
            if (result.passed()) {
                getLog().info(line);
            } else {
                getLog().error(line);
            }
        }
        if (!result.passed()) {
            throw new MojoFailureException("jp: " + result.regressions() + " regression"
                    + (result.regressions() == 1 ? "" : "s") + " beyond the tolerance against "
                    + relative(baseline) + " (see above, and " + relative(checkDirectory) + "); "
                    + whereTheGrowthIs(result));
        }
    }

    private String whereTheGrowthIs(CheckResult result) {
        if (result.diffReport() != null) {
            return "where the growth is: " + relative(result.diffReport().toFile());
        }
        return "no profiles of the baseline's run in " + relative(baselineProfiles)
                + " to diff against: run jp:baseline on the baseline's commit to keep them,"
                + " or run the jp diff command above (docs/regression-testing.md)";
    }

    private CheckRequest request(List<Path> profiles) throws MojoExecutionException {
        List<Path> base;
        try {
            base = ProfileRuns.profiles(baselineProfiles.toPath());
        } catch (IOException e) {
            throw new MojoExecutionException("jp: cannot list " + baselineProfiles + ": " + e.getMessage(), e);
        }
        CheckRequest.Builder request = CheckRequest.builder()
                .profiles(profiles)
                .baseline(baseline.toPath())
                .include(includePatterns())
                .exclude(excludePatterns())
                .ignore(EngineCalls.Settings.patterns(ignore))
                .reportDir(checkDirectory.toPath())
                .diffBase(base, new File(reportDirectory, "check-diff.html").toPath());
        if (tolerance != null) {
            request.tolerance(tolerance);
        }
        if (tolerances != null) {
            for (Tolerance each : tolerances) {
                request.toleranceFor(each.pattern(), each.percent());
            }
        }
        return request.build();
    }
}
