package org.jpprof.gradle;

import org.gradle.api.tasks.TaskAction;

/**
 * Records the exact counts of the tests and methods of the last {@code jpProfileTest} run in the
 * baseline file, to be committed next to the code; {@code jpCheck} compares later runs with it.
 */
public class JpBaseline extends JpGateTask {
    private Long methodFloor;

    /**
     * @return the fewest own bytecodes of a method that the baseline records, or {@code null} for
     *     the engine's default (1000); tests are always recorded
     */
    @org.gradle.api.tasks.Internal("passed to the engine")
    public Long getMethodFloor() {
        return methodFloor;
    }

    /** @param methodFloor the floor, or {@code null} for the default */
    public void setMethodFloor(Long methodFloor) {
        this.methodFloor = methodFloor;
    }

    /** Writes the baseline. */
    @TaskAction
    public void record() {
        String recorded = EngineBridge.baseline(
                profileFiles(), getBaselineFile(), methodFloor, getInclude(), getExclude());
        getLogger().lifecycle("jp: baseline {}: {} recorded", getBaselineFile(), recorded);
    }
}
