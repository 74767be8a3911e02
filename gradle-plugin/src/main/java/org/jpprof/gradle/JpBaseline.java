package org.jpprof.gradle;

import org.gradle.api.provider.Provider;
import org.gradle.api.tasks.TaskAction;
import org.jpprof.engine.BaselineRequest;

/**
 * Records the exact counts of the tests and methods of the last {@code jpProfileTest} run in the
 * baseline file, to be committed next to the code; {@code jpCheck} compares later runs with it.
 * The profiles themselves are kept in {@link #getBaselineProfilesDir()}, for {@code jpCheck}'s
 * diff.
 */
public class JpBaseline extends JpGateTask {
    private final Setting<Long> methodFloor = new Setting<>();
    private final Setting<String> metric = new Setting<>();

    /**
     * @return the fewest own bytecodes of a method that the baseline records, or {@code null} for
     *     the engine's default (1000); tests are always recorded
     */
    @org.gradle.api.tasks.Internal("passed to the engine")
    public Long getMethodFloor() {
        return methodFloor.get();
    }

    /** @param methodFloor the floor, or {@code null} for the default */
    public void setMethodFloor(Long methodFloor) {
        this.methodFloor.set(methodFloor);
    }

    /** @param methodFloor the plugin's floor, the {@code jp { }} block's */
    void conventionMethodFloor(Provider<Long> methodFloor) {
        this.methodFloor.convention(methodFloor);
    }

    /**
     * @return the metric the baseline records and {@code jpCheck} gates: {@code calls}, or an exact
     *     extra metric of the profiles ({@code allocations}, a probe's); {@code null} for bytecodes
     */
    @org.gradle.api.tasks.Internal("passed to the engine")
    public String getMetric() {
        return metric.get();
    }

    /** @param metric the metric's name, or {@code null} for bytecodes */
    public void setMetric(String metric) {
        this.metric.set(metric);
    }

    /** @param metric the plugin's metric, the {@code jp { }} block's {@code baselineMetric} */
    void conventionMetric(Provider<String> metric) {
        this.metric.convention(metric);
    }

    /** Writes the baseline. */
    @TaskAction
    public void record() {
        BaselineRequest.Builder request = BaselineRequest.builder()
                .profiles(toPaths(profileFiles()))
                .out(getBaselineFile().toPath())
                .include(getInclude())
                .exclude(getExclude())
                .keepProfiles(getBaselineProfilesDir().toPath());
        if (getMethodFloor() != null) {
            request.methodFloor(getMethodFloor());
        }
        if (getMetric() != null) {
            request.metric(getMetric());
        }
        String recorded = EngineBridge.baseline(request);
        getLogger().lifecycle("jp: baseline {}: {} recorded", getBaselineFile(), recorded);
    }
}
