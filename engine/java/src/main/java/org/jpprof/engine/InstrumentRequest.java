package org.jpprof.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * What to instrument and where to: the engine's instrument request. Build one with
 * {@link #builder()}:
 *
 * <pre>{@code
 * InstrumentRequest request = InstrumentRequest.builder()
 *         .input(Paths.get("build/classes/java/main"))
 *         .output(Paths.get("build/jp/classes/main"))
 *         .cacheDir(Paths.get("build/jp/cache"))
 *         .include("com.acme.**")
 *         .build();
 * }</pre>
 *
 * <p>Paths are made absolute against this JVM's working directory ({@code user.dir}) when the
 * request is built, because the engine runs in the same process but resolves relative paths
 * against the process's directory, which a build daemon does not share with the build.
 *
 * <p>It crosses to the engine as the JSON of docs/engine-json.md ({@link #toJson()}). A
 * {@code null} leaves the choice to the configuration file, then to the engine's default; the
 * request's {@code bba} wins over the file's, and its patterns are added to the file's. Instances
 * are immutable.
 */
public final class InstrumentRequest {
    /** The basic-block analysis, which decides where bytecode counts are added. */
    public enum Bba {
        /** Blocks end at jumps, switches, returns and throws; may overcount on exceptions. */
        DEFAULT("default"),
        /** Blocks also end after every instruction that can throw; exact. */
        PRECISE("precise");

        private final String json;

        Bba(String json) {
            this.json = json;
        }

        /**
         * The name of the analysis in requests and in {@code jp.toml}.
         *
         * @return {@code default} or {@code precise}
         */
        public String jsonName() {
            return json;
        }

        /**
         * The analysis a setting names.
         *
         * @param name {@code default} or {@code precise}, in any case
         * @return the analysis
         * @throws IllegalArgumentException for any other name, with a message that lists the names
         */
        public static Bba named(String name) {
            return Names.find("bba", name, values(), Bba::jsonName);
        }
    }

    /** An extra exact metric the instrumented classes count (docs/profiling.md). */
    public enum Metric {
        /** Every object and array created, per calling context and allocated type. */
        ALLOCATIONS("allocations");

        private final String json;

        Metric(String json) {
            this.json = json;
        }

        /**
         * The name of the metric in requests and in {@code jp.toml}.
         *
         * @return {@code allocations}
         */
        public String jsonName() {
            return json;
        }

        /**
         * The metric a setting names.
         *
         * @param name {@code allocations}, in any case
         * @return the metric
         * @throws IllegalArgumentException for any other name, with a message that lists the names
         */
        public static Metric named(String name) {
            return Names.find("metrics", name, values(), Metric::jsonName);
        }

        /**
         * The metrics a setting names, as a build's settings give them.
         *
         * @param names the names ({@link #named}), or null
         * @return the metrics in the order named, or null for null
         * @throws IllegalArgumentException for a name no metric has, with a message that lists the names
         */
        public static List<Metric> allNamed(List<String> names) {
            if (names == null) {
                return null;
            }
            List<Metric> metrics = new ArrayList<>();
            for (String name : names) {
                metrics.add(named(name));
            }
            return metrics;
        }
    }

    private final List<Path> inputs;
    private final Path output;
    private final Path cacheDir;
    private final Bba bba;
    private final Boolean lines;
    private final Boolean callSites;
    private final List<Metric> metrics;
    private final List<String> include;
    private final List<String> exclude;
    private final Path configFile;

    private InstrumentRequest(Builder builder) {
        this.inputs = Requests.frozen(builder.inputs);
        this.output = builder.output;
        this.cacheDir = builder.cacheDir;
        this.bba = builder.bba;
        this.lines = builder.lines;
        this.callSites = builder.callSites;
        this.metrics = builder.metrics == null ? null : Requests.frozen(builder.metrics);
        this.include = Requests.frozen(builder.include);
        this.exclude = Requests.frozen(builder.exclude);
        this.configFile = builder.configFile;
    }

    /**
     * Starts a request.
     *
     * @return an empty builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the class directories, jars and class files to instrument, absolute */
    public List<Path> inputs() {
        return inputs;
    }

    /** @return the output directory, absolute */
    public Path output() {
        return output;
    }

    /** @return the engine's cache directory, absolute, or {@code null} for none */
    public Path cacheDir() {
        return cacheDir;
    }

    /** @return the basic-block analysis, or {@code null} for the configured one */
    public Bba bba() {
        return bba;
    }

    /** @return whether to count bytecodes per source line, or {@code null} for the configured choice */
    public Boolean lines() {
        return lines;
    }

    /** @return whether to split contexts by call site, or {@code null} for the configured choice */
    public Boolean callSites() {
        return callSites;
    }

    /** @return the extra metrics to count, or {@code null} for the configured ones */
    public List<Metric> metrics() {
        return metrics;
    }

    /** @return the class patterns to instrument (empty: all classes) */
    public List<String> include() {
        return include;
    }

    /** @return the class patterns not to instrument */
    public List<String> exclude() {
        return exclude;
    }

    /** @return the {@code jp.toml} to read, absolute, or {@code null} for none */
    public Path configFile() {
        return configFile;
    }

    /**
     * The request as the engine reads it.
     *
     * @return one JSON object, of the shape that docs/engine-json.md gives
     */
    public String toJson() {
        StringBuilder out = new StringBuilder(256).append('{');
        Requests.list(out, "inputs", inputs);
        Requests.path(out.append(','), "output", output);
        Requests.path(out.append(','), "cacheDir", cacheDir);
        out.append(",\"bba\":");
        Json.writeString(out, bba == null ? null : bba.jsonName());
        if (lines != null) out.append(",\"lines\":").append(lines.booleanValue());
        if (callSites != null) out.append(",\"callSites\":").append(callSites.booleanValue());
        if (metrics != null) {
            List<String> names = new ArrayList<>();
            for (Metric metric : metrics) names.add(metric.jsonName());
            Requests.list(out.append(','), "metrics", names);
        }
        Requests.list(out.append(','), "include", include);
        Requests.list(out.append(','), "exclude", exclude);
        Requests.path(out.append(','), "configFile", configFile);
        return out.append('}').toString();
    }

    @Override
    public String toString() {
        return toJson();
    }

    /** Builds an {@link InstrumentRequest}. Every method returns this builder. */
    public static final class Builder {
        private final List<Path> inputs = new ArrayList<>();
        private Path output;
        private Path cacheDir;
        private Bba bba;
        private Boolean lines;
        private Boolean callSites;
        private List<Metric> metrics;
        private final List<String> include = new ArrayList<>();
        private final List<String> exclude = new ArrayList<>();
        private Path configFile;

        private Builder() {}

        /**
         * Adds an input: a class directory, a jar, a jmod or a class file.
         *
         * @param input the input
         * @return this builder
         */
        public Builder input(Path input) {
            inputs.add(Requests.absolute(input, "input"));
            return this;
        }

        /**
         * Adds inputs, in order.
         *
         * @param inputs the inputs
         * @return this builder
         */
        public Builder inputs(Collection<? extends Path> inputs) {
            Requests.addAbsolute(this.inputs, inputs, "input");
            return this;
        }

        /**
         * Sets the output directory (required).
         *
         * @param output the directory that receives the instrumented classes
         * @return this builder
         */
        public Builder output(Path output) {
            this.output = Requests.absolute(output, "output");
            return this;
        }

        /**
         * Sets the engine's cache directory, which makes runs incremental: unchanged classes are
         * reused, and the outputs of deleted inputs are deleted. Without one, every class is
         * rewritten and no output is ever deleted.
         *
         * @param cacheDir the directory, or {@code null} for no cache
         * @return this builder
         */
        public Builder cacheDir(Path cacheDir) {
            this.cacheDir = cacheDir == null ? null : Requests.absolute(cacheDir, "cacheDir");
            return this;
        }

        /**
         * Sets the basic-block analysis.
         *
         * @param bba the analysis, or {@code null} for the configured one
         * @return this builder
         */
        public Builder bba(Bba bba) {
            this.bba = bba;
            return this;
        }

        /**
         * Sets whether each method's bytecodes are also counted per source line (docs/profiling.md,
         * "Per-line counts"); left out of the JSON when {@code null}.
         *
         * @param lines whether to count lines, or {@code null} for the configured choice
         * @return this builder
         */
        public Builder lines(Boolean lines) {
            this.lines = lines;
            return this;
        }

        /**
         * Sets whether each method's contexts are split by the call site it was called from
         * (docs/profiling.md, "Call sites"); left out of the JSON when {@code null}.
         *
         * @param callSites whether to split by call site, or {@code null} for the configured choice
         * @return this builder
         */
        public Builder callSites(Boolean callSites) {
            this.callSites = callSites;
            return this;
        }

        /**
         * Sets the extra exact metrics to count (docs/profiling.md, "Allocations"); left out of the
         * JSON when {@code null}, and an empty collection turns the configured ones off.
         *
         * @param metrics the metrics, or {@code null} for the configured ones
         * @return this builder
         */
        public Builder metrics(Collection<Metric> metrics) {
            if (metrics == null) {
                this.metrics = null;
                return this;
            }
            this.metrics = new ArrayList<>();
            for (Metric metric : metrics) {
                this.metrics.add(Objects.requireNonNull(metric, "metric"));
            }
            return this;
        }

        /**
         * Sets the extra exact metrics to count.
         *
         * @param metrics the metrics
         * @return this builder
         */
        public Builder metrics(Metric... metrics) {
            return metrics(Arrays.asList(metrics));
        }

        /**
         * Adds class patterns to instrument, such as {@code com.acme.**} (added to the
         * configuration file's).
         *
         * @param patterns the patterns
         * @return this builder
         */
        public Builder include(String... patterns) {
            return include(Arrays.asList(patterns));
        }

        /**
         * Adds class patterns to instrument.
         *
         * @param patterns the patterns
         * @return this builder
         */
        public Builder include(Collection<String> patterns) {
            for (String pattern : patterns) {
                include.add(Objects.requireNonNull(pattern, "include pattern"));
            }
            return this;
        }

        /**
         * Adds class patterns to leave out, such as {@code com.acme.generated.*} (added to the
         * configuration file's).
         *
         * @param patterns the patterns
         * @return this builder
         */
        public Builder exclude(String... patterns) {
            return exclude(Arrays.asList(patterns));
        }

        /**
         * Adds class patterns to leave out.
         *
         * @param patterns the patterns
         * @return this builder
         */
        public Builder exclude(Collection<String> patterns) {
            for (String pattern : patterns) {
                exclude.add(Objects.requireNonNull(pattern, "exclude pattern"));
            }
            return this;
        }

        /**
         * Sets the configuration file ({@code jp.toml}). The request's {@code bba} wins over the
         * file's; its patterns are added to the file's.
         *
         * @param configFile the file, or {@code null} for none
         * @return this builder
         */
        public Builder configFile(Path configFile) {
            this.configFile = configFile == null ? null : Requests.absolute(configFile, "configFile");
            return this;
        }

        /**
         * Builds the request.
         *
         * @return the request
         * @throws IllegalStateException if no output directory was set
         */
        public InstrumentRequest build() {
            if (output == null) {
                throw new IllegalStateException("an instrument request needs an output directory");
            }
            return new InstrumentRequest(this);
        }
    }
}
