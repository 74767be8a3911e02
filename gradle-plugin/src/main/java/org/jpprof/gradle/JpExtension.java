package org.jpprof.gradle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code jp { }} block: how classes are instrumented and how the profiled tests run.
 *
 * <pre>
 * jp {
 *     bba = 'precise'                 // basic-block analysis: 'default' or 'precise'
 *     lines = true                    // count bytecodes per source line (off by default)
 *     metrics = ['allocations']       // extra exact metrics: allocations per context and type
 *     jfr = true                      // record JFR in the profiled tests; jpReport adds sampled CPU time
 *     include = ['com.acme.**']       // classes to instrument (empty: all)
 *     exclude = ['com.acme.gen.**']   // classes to leave as they are
 *     agent = 'default'               // the runtime's jp.agent
 *     granularity = 10_000_000        // the runtime's jp.granularity
 *     configFile = 'jp.toml'          // a jp.toml with an [instrument] table
 *     sourceSets = ['main']           // the source sets whose classes jpProfileTest runs instrumented
 *     baseline = 'jp-baseline.txt'    // the baseline of jpBaseline and jpCheck
 *     tolerance = 1                   // jpCheck: how much bytecodes may grow, in percent
 *     tolerances = ['com.acme.SlowTest#*': 5]  // ... per test or method pattern
 *     ignore = ['com.acme.FlakyTest#*']        // ... left out of the check
 *     methodFloor = 1000              // jpBaseline: the fewest own bytecodes of a recorded method
 *     baselineMetric = 'allocations'  // jpBaseline: what to record and gate instead of bytecodes
 * }
 * </pre>
 *
 * <p>Plain properties, not Gradle's lazy {@code Property} types: Gradle 4.4.1, which JP supports,
 * has no conventions on properties and no {@code MapProperty}, and plain properties read the same
 * in the Groovy and Kotlin DSLs of every Gradle. The tasks read them through providers when Gradle
 * reads their inputs, so the block may come anywhere in the script. The tasks have the same
 * settings; a value set on a task wins.
 */
public class JpExtension {
    private String agent;
    private String bba;
    private Boolean lines;
    private List<String> metrics;
    private boolean jfr;
    private List<String> include = new ArrayList<>();
    private List<String> exclude = new ArrayList<>();
    private Object granularity;
    private Object configFile;
    private List<String> sourceSets = new ArrayList<>(Collections.singletonList("main"));
    private Object baseline = "jp-baseline.txt";
    private Number tolerance;
    private Map<String, Number> tolerances = new LinkedHashMap<>();
    private List<String> ignore = new ArrayList<>();
    private Number methodFloor;
    private String baselineMetric;

    /**
     * The agent of the profiled JVMs, passed as the system property {@code jp.agent}:
     * {@code default}, {@code none}, or the name of a class that implements
     * {@code org.jpprof.runtime.Profiler} (docs/runtime.md).
     *
     * @return the agent, or {@code null} for the runtime's default
     */
    public String getAgent() {
        return agent;
    }

    /** @param agent the agent, or {@code null} for the runtime's default */
    public void setAgent(String agent) {
        this.agent = agent;
    }

    /**
     * The basic-block analysis: {@code default} (blocks end at jumps, switches, returns and
     * throws) or {@code precise} (blocks also end after every instruction that can throw: exact
     * bytecode counts even when exceptions are thrown).
     *
     * @return the analysis, or {@code null} for the one of {@link #getConfigFile()}, else
     *     {@code default}
     */
    public String getBba() {
        return bba;
    }

    /** @param bba {@code default}, {@code precise}, or {@code null} */
    public void setBba(String bba) {
        this.bba = bba;
    }

    /**
     * Whether the instrumented classes count bytecodes per source line (docs/profiling.md,
     * "Per-line counts"): the reports then show the hot methods line by line, and the HTML report
     * beside their source. It slows the profiled tests down, so it is off by default.
     *
     * @return whether to count lines, or {@code null} for the choice of {@link #getConfigFile()},
     *     else off
     */
    public Boolean getLines() {
        return lines;
    }

    /** @param lines whether to count lines, or {@code null} for the config file's choice */
    public void setLines(Boolean lines) {
        this.lines = lines;
    }

    /**
     * The extra exact metrics the instrumented classes count (docs/profiling.md, "Allocations"):
     * {@code allocations} counts every object and array created, per context and type. Each costs
     * time in the profiled tests, so there are none by default.
     *
     * @return the metrics, or {@code null} for those of {@link #getConfigFile()}, else none
     */
    public List<String> getMetrics() {
        return metrics;
    }

    /** @param metrics the metrics ({@code allocations}), or {@code null} for the config file's */
    public void setMetrics(List<String> metrics) {
        this.metrics = metrics == null ? null : new ArrayList<>(metrics);
    }

    /**
     * Whether the profiled test JVMs also run the JDK Flight Recorder ({@code
     * -XX:StartFlightRecording=...,settings=profile}, one recording per JVM beside its profile), and
     * {@code jpReport} attaches the recordings' samples to the profiles' contexts: sampled CPU time
     * beside the exact counts, labelled as sampled (docs/cli.md, "Sampled time"). Off by default.
     *
     * @return whether to record JFR
     */
    public boolean getJfr() {
        return jfr;
    }

    /** @param jfr whether to record JFR in the profiled tests and report its samples */
    public void setJfr(boolean jfr) {
        this.jfr = jfr;
    }

    /**
     * Patterns of the binary class names to instrument ({@code com.acme.*} a package,
     * {@code com.acme.**} a package and its subpackages, {@code **Test} names ending in
     * {@code Test}). Empty: every class. Others are copied unchanged.
     *
     * @return the patterns, a live list
     */
    public List<String> getInclude() {
        return include;
    }

    /** @param include the patterns, replacing those set so far */
    public void setInclude(List<String> include) {
        this.include = new ArrayList<>(include);
    }

    /**
     * Adds patterns of classes to instrument.
     *
     * @param patterns the patterns
     */
    public void include(String... patterns) {
        include.addAll(Arrays.asList(patterns));
    }

    /**
     * Patterns of the classes to copy unchanged; they win over {@link #getInclude()}.
     *
     * @return the patterns, a live list
     */
    public List<String> getExclude() {
        return exclude;
    }

    /** @param exclude the patterns, replacing those set so far */
    public void setExclude(List<String> exclude) {
        this.exclude = new ArrayList<>(exclude);
    }

    /**
     * Adds patterns of classes to copy unchanged.
     *
     * @param patterns the patterns
     */
    public void exclude(String... patterns) {
        exclude.addAll(Arrays.asList(patterns));
    }

    /**
     * How many bytecodes a thread runs between two calls of its agent's {@code report}, passed as
     * the system property {@code jp.granularity}. The default agent ignores it.
     *
     * @return a number ({@code 10_000_000}, or the text {@code "10_000_000"}), or {@code null}
     *     for the runtime's default
     */
    public Object getGranularity() {
        return granularity;
    }

    /** @param granularity a number or its text, or {@code null} */
    public void setGranularity(Object granularity) {
        this.granularity = granularity;
    }

    /**
     * A {@code jp.toml} whose {@code [instrument]} table gives {@code bba}, {@code include} and
     * {@code exclude}; the settings here add to its lists and override its {@code bba}.
     *
     * @return anything {@code project.file()} takes (a path relative to the project, a
     *     {@code File}), or {@code null} for none
     */
    public Object getConfigFile() {
        return configFile;
    }

    /** @param configFile anything {@code project.file()} takes, or {@code null} */
    public void setConfigFile(Object configFile) {
        this.configFile = configFile;
    }

    /**
     * The source sets whose classes the profiled test tasks run instrumented, in place of their
     * compiler output (and, for {@code main}, of the project's jar). Default: {@code ['main']}; add {@code 'test'} to profile the test classes
     * too. Every source set has its {@code jpInstrument<SourceSet>} task either way.
     *
     * @return the source-set names, a live list
     */
    public List<String> getSourceSets() {
        return sourceSets;
    }

    /** @param sourceSets the source-set names, replacing those set so far */
    public void setSourceSets(List<String> sourceSets) {
        this.sourceSets = new ArrayList<>(sourceSets);
    }

    /**
     * The baseline file of {@code jpBaseline} and {@code jpCheck} (docs/regression-testing.md).
     *
     * @return anything {@code project.file()} takes; default {@code jp-baseline.txt} in the
     *     project directory
     */
    public Object getBaseline() {
        return baseline;
    }

    /** @param baseline anything {@code project.file()} takes */
    public void setBaseline(Object baseline) {
        this.baseline = baseline;
    }

    /**
     * How much a test's or a method's bytecodes may grow (or shrink) before {@code jpCheck} says
     * so, in percent of its baseline count.
     *
     * @return the percentage, or {@code null} for the engine's default (1)
     */
    public Number getTolerance() {
        return tolerance;
    }

    /** @param tolerance the percentage, or {@code null} */
    public void setTolerance(Number tolerance) {
        this.tolerance = tolerance;
    }

    /**
     * Tolerances in percent by test or method pattern ({@code *} for any text), for
     * {@code jpCheck}; the first pattern that matches applies.
     *
     * @return the tolerances, a live map in order
     */
    public Map<String, Number> getTolerances() {
        return tolerances;
    }

    /** @param tolerances the tolerances, replacing those set so far */
    public void setTolerances(Map<String, ? extends Number> tolerances) {
        this.tolerances = new LinkedHashMap<>(tolerances);
    }

    /**
     * Patterns of the tests and methods that {@code jpCheck} leaves out.
     *
     * @return the patterns, a live list
     */
    public List<String> getIgnore() {
        return ignore;
    }

    /** @param ignore the patterns, replacing those set so far */
    public void setIgnore(List<String> ignore) {
        this.ignore = new ArrayList<>(ignore);
    }

    /**
     * The fewest own bytecodes of a method that {@code jpBaseline} records (tests are always
     * recorded, and count the work of the small methods they ran).
     *
     * @return the floor, or {@code null} for the engine's default (1000)
     */
    public Number getMethodFloor() {
        return methodFloor;
    }

    /** @param methodFloor the floor, or {@code null} */
    public void setMethodFloor(Number methodFloor) {
        this.methodFloor = methodFloor;
    }

    /**
     * The metric that {@code jpBaseline} records and {@code jpCheck} gates: {@code calls}, or an
     * exact extra metric of the profiles ({@code allocations}, {@code allocations:int[]}, a
     * probe's), which the classes must be instrumented to count.
     *
     * @return the metric's name, or {@code null} for bytecodes
     */
    public String getBaselineMetric() {
        return baselineMetric;
    }

    /** @param baselineMetric the metric's name, or {@code null} for bytecodes */
    public void setBaselineMetric(String baselineMetric) {
        this.baselineMetric = baselineMetric;
    }
}
