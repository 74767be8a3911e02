package org.jpprof.gradle;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gradle.api.GradleException;
import org.gradle.api.provider.Provider;
import org.gradle.api.tasks.Internal;
import org.gradle.api.tasks.TaskAction;
import org.jpprof.engine.CheckRequest;
import org.jpprof.engine.CheckResult;
import org.jpprof.engine.ProfileRuns;

/**
 * Compares the last {@code jpProfileTest} run with the baseline file and fails the build when a
 * test's or a method's bytecodes grew beyond the tolerance, naming each one with its numbers. The
 * summaries (text, JSON, Markdown) go to {@code build/reports/jp/check}; when {@code jpBaseline}
 * kept the profiles of the baseline's run, the diff of them against this run goes to
 * {@code build/reports/jp/check-diff.html} and the failure names it.
 */
public class JpCheck extends JpGateTask {
    private final Setting<Double> tolerance = new Setting<>();
    private final Setting<Map<String, Number>> tolerances = new Setting<>();
    private final Setting<List<String>> ignore = new Setting<>();
    private final Setting<File> reportDir = new Setting<>();
    private final Setting<File> diffReport = new Setting<>();

    /** @return the default tolerance in percent, or {@code null} for the engine's (1) */
    @Internal("passed to the engine")
    public Double getTolerance() {
        return tolerance.get();
    }

    /** @param tolerance the tolerance in percent, or {@code null} */
    public void setTolerance(Double tolerance) {
        this.tolerance.set(tolerance);
    }

    /** @return tolerances in percent by test or method pattern; the first that matches applies */
    @Internal("passed to the engine")
    public Map<String, Number> getTolerances() {
        Map<String, Number> set = tolerances.get();
        return set == null ? new LinkedHashMap<String, Number>() : set;
    }

    /** @param tolerances tolerances in percent by pattern */
    public void setTolerances(Map<String, ? extends Number> tolerances) {
        this.tolerances.set(new LinkedHashMap<>(tolerances));
    }

    /** @return patterns of tests and methods left out of the check */
    @Internal("passed to the engine")
    public List<String> getIgnore() {
        List<String> set = ignore.get();
        return set == null ? new ArrayList<String>() : set;
    }

    /** @param ignore the patterns */
    public void setIgnore(List<String> ignore) {
        this.ignore.set(new ArrayList<>(ignore));
    }

    /** The settings the plugin gives: the {@code jp { }} block's, and the reports' places. */
    void conventions(
            Provider<Double> tolerance,
            Provider<Map<String, Number>> tolerances,
            Provider<List<String>> ignore,
            Provider<File> reportDir,
            Provider<File> diffReport) {
        this.tolerance.convention(tolerance);
        this.tolerances.convention(tolerances);
        this.ignore.convention(ignore);
        this.reportDir.convention(reportDir);
        this.diffReport.convention(diffReport);
    }

    /** @return where the summaries go ({@code build/reports/jp/check}) */
    @Internal("written by the engine")
    public File getReportDir() {
        return reportDir.get();
    }

    /** @param reportDir where the summaries go */
    public void setReportDir(File reportDir) {
        this.reportDir.set(reportDir);
    }

    /**
     * @return the HTML diff of the baseline's kept profiles against this run, written when they are
     *     there ({@code build/reports/jp/check-diff.html})
     */
    @Internal("written by the engine")
    public File getDiffReport() {
        return diffReport.get();
    }

    /** @param diffReport where the diff goes */
    public void setDiffReport(File diffReport) {
        this.diffReport.set(diffReport);
    }

    /** Compares, logs the summary, and fails on a regression. */
    @TaskAction
    public void check() {
        CheckRequest.Builder request = CheckRequest.builder()
                .profiles(toPaths(profileFiles()))
                .baseline(getBaselineFile().toPath())
                .include(getInclude())
                .exclude(getExclude())
                .ignore(getIgnore())
                .reportDir(getReportDir().toPath())
                .diffBase(baselineProfiles(), getDiffReport().toPath());
        if (getTolerance() != null) {
            request.tolerance(getTolerance());
        }
        for (Map.Entry<String, Number> entry : getTolerances().entrySet()) {
            request.toleranceFor(entry.getKey(), entry.getValue().doubleValue());
        }
        CheckResult result = EngineBridge.check(request);
        getLogger().lifecycle(result.summary().trim());
        if (!result.passed()) {
            throw new GradleException("jp: " + result.regressions() + " regression"
                    + (result.regressions() == 1 ? "" : "s") + " beyond the tolerance against "
                    + getBaselineFile() + " (see above, and " + getReportDir() + "); " + whereTheGrowthIs(result));
        }
    }

    /** The profiles {@code jpBaseline} kept; none when it did not run in this build directory. */
    private List<java.nio.file.Path> baselineProfiles() {
        try {
            return ProfileRuns.profiles(getBaselineProfilesDir().toPath());
        } catch (IOException e) {
            throw new GradleException("jp: cannot list " + getBaselineProfilesDir() + ": " + e.getMessage(), e);
        }
    }

    private String whereTheGrowthIs(CheckResult result) {
        if (result.diffReport() != null) {
            return "where the growth is: " + result.diffReport();
        }
        return "no profiles of the baseline's run in " + getBaselineProfilesDir()
                + " to diff against: run " + JpPlugin.BASELINE + " on the baseline's commit to keep them,"
                + " or run the jp diff command above (docs/regression-testing.md)";
    }
}
