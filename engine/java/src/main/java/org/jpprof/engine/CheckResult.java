package org.jpprof.engine;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

/**
 * What a check request found. Read from {@code {"passed": b, "regressions": n, "improvements": n,
 * "summary": "...", "diffReport": "..."|null}}. Instances are immutable.
 */
public final class CheckResult {
    private final boolean passed;
    private final int regressions;
    private final int improvements;
    private final String summary;
    private final Path diffReport;

    private CheckResult(Map<String, Object> json) {
        Object passed = json.get("passed");
        Object summary = json.get("summary");
        if (!(passed instanceof Boolean) || !(summary instanceof String)) {
            throw new IllegalArgumentException("the outcome has no \"passed\" or no \"summary\"");
        }
        this.passed = (Boolean) passed;
        this.regressions = GateJson.count(json, "regressions");
        this.improvements = GateJson.count(json, "improvements");
        this.summary = (String) summary;
        Object diffReport = json.get("diffReport");
        this.diffReport = diffReport instanceof String ? Paths.get((String) diffReport) : null;
    }

    /**
     * Reads the engine's outcome.
     *
     * @param json the outcome's JSON
     * @return the result
     * @throws IllegalArgumentException if {@code json} is not a check's outcome
     */
    static CheckResult fromJson(String json) {
        return new CheckResult(GateJson.object(json));
    }

    /** @return whether no test or method grew beyond its tolerance */
    public boolean passed() {
        return passed;
    }

    /** @return how many tests and methods grew beyond their tolerance */
    public int regressions() {
        return regressions;
    }

    /** @return how many shrank beyond it */
    public int improvements() {
        return improvements;
    }

    /** @return the text summary, one finding a line, for the build log */
    public String summary() {
        return summary;
    }

    /** @return the HTML diff against the baseline's profiles that the check wrote, or {@code null} */
    public Path diffReport() {
        return diffReport;
    }

    @Override
    public String toString() {
        return summary;
    }
}
