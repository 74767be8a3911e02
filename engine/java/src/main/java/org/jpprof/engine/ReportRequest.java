package org.jpprof.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Which profiles to merge, and the report to write of them: the engine's report request. Build one
 * with {@link #builder()}:
 *
 * <pre>{@code
 * ReportRequest request = ReportRequest.builder()
 *         .profiles(profileFiles)
 *         .format(ReportRequest.Format.HTML)
 *         .out(Paths.get("build/reports/jp/index.html"))
 *         .build();
 * engine.report(request);
 * }</pre>
 *
 * <p>Paths are made absolute against {@code user.dir} when set, as in {@link InstrumentRequest}.
 * It crosses to the engine as the JSON of docs/engine-json.md ({@link #toJson()}). Instances are
 * immutable.
 */
public final class ReportRequest {
    /** The report formats. */
    public enum Format {
        /** One self-contained HTML page: call tree, icicle graph and hot methods, both metrics. */
        HTML,
        /** A text tree with own values, subtree totals and the hot methods, in one metric. */
        TEXT,
        /** Collapsed stacks ({@code frame;frame value}), for flame-graph tools, in one metric. */
        FOLDED,
        /** speedscope's JSON file format, both metrics. */
        SPEEDSCOPE,
        /** pprof's gzipped protocol buffers, both metrics as two sample types. */
        PPROF;

        /**
         * The format's name in requests and on {@code jp report}'s command line.
         *
         * @return for example {@code html}
         */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The counts a report can show. */
    public enum Metric {
        /** Invocations. */
        CALLS,
        /** Bytecodes executed. */
        BYTECODES;

        /**
         * The metric's name in requests and on {@code jp report}'s command line.
         *
         * @return {@code calls} or {@code bytecodes}
         */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * The metric a setting names.
         *
         * @param name {@code calls} or {@code bytecodes}, in any case
         * @return the metric
         * @throws IllegalArgumentException for any other name, with a message that lists the names
         */
        public static Metric named(String name) {
            return Names.find("metric", name, values(), Metric::jsonName);
        }
    }

    private final List<Path> profiles;
    private final Format format;
    private final Metric metric;
    private final double threshold;
    private final Integer maxDepth;
    private final String title;
    private final List<Path> sources;
    private final List<Path> samples;
    private final Path out;

    private ReportRequest(Builder builder) {
        this.profiles = Requests.frozen(builder.profiles);
        this.format = builder.format;
        this.metric = builder.metric;
        this.threshold = builder.threshold;
        this.maxDepth = builder.maxDepth;
        this.title = builder.title;
        this.sources = Requests.frozen(builder.sources);
        this.samples = Requests.frozen(builder.samples);
        this.out = builder.out;
    }

    /**
     * Starts a request.
     *
     * @return an empty builder: bytecodes, no threshold, no depth limit
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the profiles to merge, absolute, in order */
    public List<Path> profiles() {
        return profiles;
    }

    /** @return the report's format */
    public Format format() {
        return format;
    }

    /** @return the count that single-metric formats show and the threshold compares */
    public Metric metric() {
        return metric;
    }

    /** @return the percentage of the total under which contexts are left out (0: none are) */
    public double threshold() {
        return threshold;
    }

    /** @return the deepest context shown (top-level contexts are at depth 1), or {@code null} */
    public Integer maxDepth() {
        return maxDepth;
    }

    /** @return the report's title, or {@code null} for the one the engine derives from the profiles */
    public String title() {
        return title;
    }

    /** @return the directories of source files the HTML report shows the hot methods' lines in, absolute */
    public List<Path> sources() {
        return sources;
    }

    /** @return the recordings of sampled stacks attached to the profiles' contexts, absolute */
    public List<Path> samples() {
        return samples;
    }

    /** @return the report file, absolute */
    public Path out() {
        return out;
    }

    /**
     * The request as the engine reads it.
     *
     * @return one JSON object, of the shape that docs/engine-json.md gives
     */
    public String toJson() {
        StringBuilder json = new StringBuilder(256).append('{');
        Requests.list(json, "profiles", profiles);
        json.append(",\"format\":");
        Json.writeString(json, format.jsonName());
        json.append(",\"metric\":");
        Json.writeString(json, metric.jsonName());
        json.append(",\"threshold\":").append(threshold);
        json.append(",\"maxDepth\":").append(maxDepth == null ? "null" : maxDepth.toString());
        json.append(",\"title\":");
        if (title == null) json.append("null");
        else Json.writeString(json, title);
        if (!sources.isEmpty()) Requests.list(json.append(','), "sources", sources);
        if (!samples.isEmpty()) Requests.list(json.append(','), "samples", samples);
        Requests.path(json.append(','), "out", out);
        return json.append('}').toString();
    }

    @Override
    public String toString() {
        return toJson();
    }

    /** Builds a {@link ReportRequest}. Every method returns this builder. */
    public static final class Builder {
        private final List<Path> profiles = new ArrayList<>();
        private Format format;
        private Metric metric = Metric.BYTECODES;
        private double threshold;
        private Integer maxDepth;
        private String title;
        private final List<Path> sources = new ArrayList<>();
        private final List<Path> samples = new ArrayList<>();
        private Path out;

        private Builder() {}

        /**
         * Adds a profile ({@code *.jpprof}, written by JP's runtime).
         *
         * @param profile the profile
         * @return this builder
         */
        public Builder profile(Path profile) {
            profiles.add(Requests.absolute(profile, "profile"));
            return this;
        }

        /**
         * Adds profiles, in order; all are merged into one tree.
         *
         * @param profiles the profiles
         * @return this builder
         */
        public Builder profiles(Collection<? extends Path> profiles) {
            Requests.addAbsolute(this.profiles, profiles, "profile");
            return this;
        }

        /**
         * Sets the report's format (required).
         *
         * @param format the format
         * @return this builder
         */
        public Builder format(Format format) {
            this.format = Objects.requireNonNull(format, "format");
            return this;
        }

        /**
         * Sets the count that the text and folded formats show, and that the threshold compares
         * (the HTML, speedscope and pprof reports hold both; pprof shows this one first). The
         * default is {@link Metric#BYTECODES}.
         *
         * @param metric the metric
         * @return this builder
         */
        public Builder metric(Metric metric) {
            this.metric = Objects.requireNonNull(metric, "metric");
            return this;
        }

        /**
         * Leaves out contexts whose subtree total is below this percentage of the profile's total.
         * The default, 0, keeps everything.
         *
         * @param percent from 0 to 100
         * @return this builder
         * @throws IllegalArgumentException if {@code percent} is not from 0 to 100
         */
        public Builder threshold(double percent) {
            if (!(percent >= 0 && percent <= 100)) {
                throw new IllegalArgumentException(
                        "the threshold is " + percent + ", not a percentage from 0 to 100");
            }
            this.threshold = percent;
            return this;
        }

        /**
         * Leaves out contexts deeper than this; top-level contexts are at depth 1. The default is
         * no limit.
         *
         * @param depth 1 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code depth} is less than 1
         */
        public Builder maxDepth(int depth) {
            if (depth < 1) {
                throw new IllegalArgumentException(
                        "the maximum depth is " + depth + "; top-level contexts are at depth 1");
            }
            this.maxDepth = depth;
            return this;
        }

        /**
         * Sets the report's title, shown by the text and HTML reports. By default the engine derives
         * one from the profiles (the profiled program, or the profiles' directory).
         *
         * @param title the title, for example {@code demo: jpProfileTest}
         * @return this builder
         */
        public Builder title(String title) {
            this.title = Objects.requireNonNull(title, "title");
            return this;
        }

        /**
         * Adds directories of source files, in the order searched: the HTML report shows the per-line
         * counts of the hot methods beside their source, looked up as {@code
         * <dir>/<package path>/<outer class>.java} (or {@code .kt}). A directory that does not exist holds
         * no sources; it is no error, as a build's source set may name such directories.
         *
         * @param dirs the directories
         * @return this builder
         */
        public Builder sources(Collection<? extends Path> dirs) {
            Requests.addAbsolute(sources, dirs, "source directory");
            return this;
        }

        /**
         * Adds recordings of sampled stacks, whose samples the report attaches to the profiles'
         * contexts as sampled metrics ({@code jp report --samples}): JDK Flight Recorder recordings
         * ({@code .jfr}, read with the JDK's {@code jfr} tool), directories of them (the build
         * plugins record one per test JVM into a directory), or async-profiler's collapsed stacks.
         *
         * @param recordings the recordings
         * @return this builder
         */
        public Builder samples(Collection<? extends Path> recordings) {
            Requests.addAbsolute(samples, recordings, "recording of samples");
            return this;
        }

        /**
         * Sets the report file (required). It is written atomically: complete, or not at all.
         *
         * @param out the file
         * @return this builder
         */
        public Builder out(Path out) {
            this.out = Requests.absolute(out, "out");
            return this;
        }

        /**
         * Builds the request.
         *
         * @return the request
         * @throws IllegalStateException if no profile, no format or no report file was set
         */
        public ReportRequest build() {
            if (profiles.isEmpty()) {
                throw new IllegalStateException("a report request needs at least one profile");
            }
            if (format == null) {
                throw new IllegalStateException("a report request needs a format");
            }
            if (out == null) {
                throw new IllegalStateException("a report request needs a report file (out)");
            }
            return new ReportRequest(this);
        }
    }
}
