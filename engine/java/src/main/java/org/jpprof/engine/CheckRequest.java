package org.jpprof.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which profiles to check against which baseline, and how strictly: the engine's check request
 * (docs/regression-testing.md). Build one with {@link #builder()}:
 *
 * <pre>{@code
 * CheckResult result = engine.check(CheckRequest.builder()
 *         .profiles(profileFiles).baseline(Paths.get("jp-baseline.txt"))
 *         .tolerance(1).toleranceFor("com.acme.SlowTest#*", 5).build());
 * }</pre>
 *
 * <p>It crosses to the engine as the JSON of docs/engine-json.md ({@link #toJson()}). Instances
 * are immutable.
 */
public final class CheckRequest {
    private final List<Path> profiles;
    private final Path baseline;
    private final List<String> include;
    private final List<String> exclude;
    private final Double tolerance;
    private final Map<String, Double> tolerances;
    private final List<String> ignore;
    private final Path reportDir;
    private final List<Path> diffBase;
    private final Path diffOut;

    private CheckRequest(Builder builder) {
        this.profiles = Requests.frozen(builder.profiles);
        this.baseline = builder.baseline;
        this.include = Requests.frozen(builder.include);
        this.exclude = Requests.frozen(builder.exclude);
        this.tolerance = builder.tolerance;
        this.tolerances = Collections.unmodifiableMap(new LinkedHashMap<>(builder.tolerances));
        this.ignore = Requests.frozen(builder.ignore);
        this.reportDir = builder.reportDir;
        this.diffBase = Requests.frozen(builder.diffBase);
        this.diffOut = builder.diffOut;
    }

    /**
     * Starts a request.
     *
     * @return an empty builder: the engine's default tolerance, nothing ignored
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the baseline file, absolute */
    public Path baseline() {
        return baseline;
    }

    /**
     * The request as the engine reads it.
     *
     * @return one JSON object, of the shape that docs/engine-json.md gives
     */
    public String toJson() {
        StringBuilder json = new StringBuilder(256).append('{');
        Requests.list(json, "profiles", profiles);
        Requests.path(json.append(','), "baseline", baseline);
        Requests.list(json.append(','), "include", include);
        Requests.list(json.append(','), "exclude", exclude);
        json.append(",\"tolerance\":").append(tolerance == null ? "null" : tolerance.toString());
        json.append(",\"tolerances\":[");
        String separator = "";
        for (Map.Entry<String, Double> entry : tolerances.entrySet()) {
            json.append(separator).append("{\"pattern\":");
            Json.writeString(json, entry.getKey());
            json.append(",\"percent\":").append(entry.getValue()).append('}');
            separator = ",";
        }
        json.append(']');
        Requests.list(json.append(','), "ignore", ignore);
        Requests.path(json.append(','), "reportDir", reportDir);
        Requests.list(json.append(','), "diffBase", diffBase);
        Requests.path(json.append(','), "diffOut", diffOut);
        return json.append('}').toString();
    }

    @Override
    public String toString() {
        return toJson();
    }

    /** Builds a {@link CheckRequest}. Every method returns this builder. */
    public static final class Builder {
        private final List<Path> profiles = new ArrayList<>();
        private Path baseline;
        private final List<String> include = new ArrayList<>();
        private final List<String> exclude = new ArrayList<>();
        private Double tolerance;
        private final Map<String, Double> tolerances = new LinkedHashMap<>();
        private final List<String> ignore = new ArrayList<>();
        private Path reportDir;
        private final List<Path> diffBase = new ArrayList<>();
        private Path diffOut;

        private Builder() {}

        /**
         * Adds profiles of the run to check, in order; all are merged.
         *
         * @param profiles the profiles
         * @return this builder
         */
        public Builder profiles(Collection<? extends Path> profiles) {
            Requests.addAbsolute(this.profiles, profiles, "profile");
            return this;
        }

        /**
         * Sets the baseline file (required).
         *
         * @param baseline the file
         * @return this builder
         */
        public Builder baseline(Path baseline) {
            this.baseline = Requests.absolute(baseline, "baseline");
            return this;
        }

        /**
         * Adds include patterns the classes were instrumented with.
         *
         * @param patterns the patterns
         * @return this builder
         */
        public Builder include(Collection<String> patterns) {
            include.addAll(patterns);
            return this;
        }

        /**
         * Adds exclude patterns the classes were instrumented with.
         *
         * @param patterns the patterns
         * @return this builder
         */
        public Builder exclude(Collection<String> patterns) {
            exclude.addAll(patterns);
            return this;
        }

        /**
         * Sets how much an entry's bytecodes may change, in percent of its baseline count.
         *
         * @param percent 0 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code percent} is negative or not a number
         */
        public Builder tolerance(double percent) {
            this.tolerance = percent(percent);
            return this;
        }

        /**
         * Sets the tolerance of the tests and methods a pattern names ({@code *} for any text); the
         * first pattern added that matches applies.
         *
         * @param pattern the pattern
         * @param percent 0 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code percent} is negative or not a number
         */
        public Builder toleranceFor(String pattern, double percent) {
            tolerances.put(pattern, percent(percent));
            return this;
        }

        /**
         * Leaves the tests and methods that the patterns name out of the check.
         *
         * @param patterns the patterns
         * @return this builder
         */
        public Builder ignore(Collection<String> patterns) {
            ignore.addAll(patterns);
            return this;
        }

        /**
         * Writes the summaries ({@code jp-check.txt}, {@code .json}, {@code .md}) in this directory.
         *
         * @param dir the directory
         * @return this builder
         */
        public Builder reportDir(Path dir) {
            this.reportDir = Requests.absolute(dir, "reportDir");
            return this;
        }

        /**
         * Writes the HTML diff of the profiles the baseline was recorded from against the run's to
         * {@code out}, and names it in the summaries.
         *
         * @param profiles the baseline's profiles (none: no diff)
         * @param out the page
         * @return this builder
         */
        public Builder diffBase(Collection<? extends Path> profiles, Path out) {
            Requests.addAbsolute(diffBase, profiles, "diffBase");
            this.diffOut = Requests.absolute(out, "diffOut");
            return this;
        }

        /**
         * Builds the request.
         *
         * @return the request
         * @throws IllegalStateException if no profile or no baseline was set
         */
        public CheckRequest build() {
            if (profiles.isEmpty()) {
                throw new IllegalStateException("a check request needs at least one profile");
            }
            if (baseline == null) {
                throw new IllegalStateException("a check request needs a baseline file");
            }
            return new CheckRequest(this);
        }

        private static double percent(double percent) {
            if (!(percent >= 0) || Double.isInfinite(percent)) {
                throw new IllegalArgumentException(
                        "the tolerance is " + percent + ", not a percentage (0 or more)");
            }
            return percent;
        }
    }
}
