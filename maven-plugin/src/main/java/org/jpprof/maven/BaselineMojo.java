package org.jpprof.maven;

import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.jpprof.engine.BaselineRequest;
import org.jpprof.engine.EngineException;

/**
 * Records the exact counts of the module's tests and methods, from the profiles of its test run,
 * in the baseline file ({@code jp-baseline.txt}), to be committed next to the code;
 * {@code jp:check} compares later runs with it. Run it after the tests:
 * {@code mvn verify jp:baseline}. The profiles themselves are kept in
 * {@code target/jp/baseline-profiles}, for {@code jp:check}'s diff.
 *
 * @since 0.1.0
 */
@Mojo(name = "baseline", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class BaselineMojo extends AbstractGateMojo {
    /**
     * The fewest own bytecodes of a method that the baseline records; tests are always recorded
     * and count the work of the small methods they ran. Unset: the engine's default (1000).
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.methodFloor")
    protected Long methodFloor;

    /**
     * The metric the baseline records and {@code jp:check} gates: {@code calls}, or an exact extra
     * metric of the profiles ({@code allocations}, {@code allocations:int[]}, a probe's), which
     * the classes must be instrumented to count. Unset: bytecodes.
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.baselineMetric")
    protected String metric;

    @Override
    protected void gate(List<Path> profiles) throws MojoExecutionException {
        if (profiles.isEmpty()) {
            getLog().warn("jp: no profiles in target/jp/profiles, so no baseline; run the tests with "
                    + "jp:instrument first (docs/maven.md)");
            return;
        }
        BaselineRequest.Builder request = BaselineRequest.builder()
                .profiles(profiles)
                .out(baseline.toPath())
                .include(includePatterns())
                .exclude(excludePatterns())
                .keepProfiles(baselineProfiles.toPath());
        if (methodFloor != null) {
            request.methodFloor(methodFloor);
        }
        if (metric != null) {
            request.metric(metric);
        }
        try {
            String recorded = EngineCalls.engine().baseline(request.build());
            getLog().info("jp: baseline " + relative(baseline) + ": " + recorded + " recorded");
        } catch (EngineException | IllegalArgumentException e) {
            throw new MojoExecutionException("jp: " + e.getMessage(), e);
        }
    }
}
