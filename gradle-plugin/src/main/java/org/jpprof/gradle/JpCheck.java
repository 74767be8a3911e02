package org.jpprof.gradle;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gradle.api.GradleException;
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
    private Double tolerance;
    private Map<String, Number> tolerances = new LinkedHashMap<>();
    private List<String> ignore = new ArrayList<>();
    private File reportDir;
    private File diffReport;

    /** @return the default tolerance in percent, or {@code null} for the engine's (1) */
    @Internal("passed to the engine")
    public Double getTolerance() {
        return tolerance;
    }

    /** @param tolerance the tolerance in percent, or {@code null} */
    public void setTolerance(Double tolerance) {
        this.tolerance = tolerance;
    }

    /** @return tolerances in percent by test or method pattern; the first that matches applies */
    @Internal("passed to the engine")
    public Map<String, Number> getTolerances() {
        return tolerances;
    }

    /** @param tolerances tolerances in percent by pattern */
    public void setTolerances(Map<String, ? extends Number> tolerances) {
        this.tolerances = new LinkedHashMap<>(tolerances);
    }

    /** @return patterns of tests and methods left out of the check */
    @Internal("passed to the engine")
    public List<String> getIgnore() {
        return ignore;
    }

    /** @param ignore the patterns */
    public void setIgnore(List<String> ignore) {
        this.ignore = new ArrayList<>(ignore);
    }

    /** @return where the summaries go ({@code build/reports/jp/check}) */
    @Internal("written by the engine")
    public File getReportDir() {
        return reportDir;
    }

    /** @param reportDir where the summaries go */
    public void setReportDir(File reportDir) {
        this.reportDir = reportDir;
    }

    /**
     * @return the HTML diff of the baseline's kept profiles against this run, written when they are
     *     there ({@code build/reports/jp/check-diff.html})
     */
    @Internal("written by the engine")
    public File getDiffReport() {
        return diffReport;
    }

    /** @param diffReport where the diff goes */
    public void setDiffReport(File diffReport) {
        this.diffReport = diffReport;
    }

    /** Compares, logs the summary, and fails on a regression. */
    @TaskAction
    public void check() {
        CheckRequest.Builder request = CheckRequest.builder()
                .profiles(toPaths(profileFiles()))
                .baseline(getBaselineFile().toPath())
                .include(getInclude())
                .exclude(getExclude())
                .ignore(ignore)
                .reportDir(reportDir.toPath())
                .diffBase(baselineProfiles(), diffReport.toPath());
        if (tolerance != null) {
            request.tolerance(tolerance);
        }
        for (Map.Entry<String, Number> entry : tolerances.entrySet()) {
            request.toleranceFor(entry.getKey(), entry.getValue().doubleValue());
        }
        CheckResult result = EngineBridge.check(request);
        getLogger().lifecycle(result.summary().trim());
        if (!result.passed()) {
            throw new GradleException("jp: " + result.regressions() + " regression"
                    + (result.regressions() == 1 ? "" : "s") + " beyond the tolerance against "
                    + getBaselineFile() + " (see above, and " + reportDir + "); " + whereTheGrowthIs(result));
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
