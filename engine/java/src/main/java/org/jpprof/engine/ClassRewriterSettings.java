package org.jpprof.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * How a {@link ClassRewriter} rewrites classes: the settings of an {@link InstrumentRequest}
 * without inputs and output, plus the directory where rewritten classes are cached. Build one
 * with {@link #builder()}; it crosses to the engine as the JSON of docs/engine-json.md
 * ({@link #toJson()}). A {@code null} leaves the choice to the configuration file, then to the
 * engine's default. Instances are immutable.
 */
public final class ClassRewriterSettings {
    private final InstrumentRequest.Bba bba;
    private final Boolean lines;
    private final Boolean natives;
    private final List<String> include;
    private final List<String> exclude;
    private final Path configFile;
    private final Path cacheDir;

    private ClassRewriterSettings(Builder builder) {
        this.bba = builder.bba;
        this.lines = builder.lines;
        this.natives = builder.natives;
        this.include = Requests.frozen(builder.include);
        this.exclude = Requests.frozen(builder.exclude);
        this.configFile = builder.configFile;
        this.cacheDir = builder.cacheDir;
    }

    /**
     * Starts the settings.
     *
     * @return an empty builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the basic-block analysis, or {@code null} for the configured one */
    public InstrumentRequest.Bba bba() {
        return bba;
    }

    /** @return whether to count bytecodes per source line, or {@code null} for the configured choice */
    public Boolean lines() {
        return lines;
    }

    /**
     * @return whether native methods become contexts (through wrappers that call them renamed,
     *     which only a JVM whose native method prefix an agent set can bind), or {@code null} for off
     */
    public Boolean natives() {
        return natives;
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

    /** @return the cache directory of rewritten classes, absolute, or {@code null} for none */
    public Path cacheDir() {
        return cacheDir;
    }

    /**
     * The settings as the engine reads them.
     *
     * @return one JSON object, of the shape that docs/engine-json.md gives
     */
    public String toJson() {
        StringBuilder out = new StringBuilder(256).append("{\"bba\":");
        Json.writeString(out, bba == null ? null : bba.jsonName());
        if (lines != null) out.append(",\"lines\":").append(lines.booleanValue());
        if (natives != null) out.append(",\"natives\":").append(natives.booleanValue());
        Requests.list(out.append(','), "include", include);
        Requests.list(out.append(','), "exclude", exclude);
        Requests.path(out.append(','), "configFile", configFile);
        Requests.path(out.append(','), "cacheDir", cacheDir);
        return out.append('}').toString();
    }

    @Override
    public String toString() {
        return toJson();
    }

    /** Builds {@link ClassRewriterSettings}. Every method returns this builder. */
    public static final class Builder {
        private InstrumentRequest.Bba bba;
        private Boolean lines;
        private Boolean natives;
        private final List<String> include = new ArrayList<>();
        private final List<String> exclude = new ArrayList<>();
        private Path configFile;
        private Path cacheDir;

        private Builder() {}

        /**
         * Sets the basic-block analysis.
         *
         * @param bba the analysis, or {@code null} for the configured one
         * @return this builder
         */
        public Builder bba(InstrumentRequest.Bba bba) {
            this.bba = bba;
            return this;
        }

        /**
         * Sets whether each method's bytecodes are also counted per source line.
         *
         * @param lines whether to count lines, or {@code null} for the configured choice
         * @return this builder
         */
        public Builder lines(Boolean lines) {
            this.lines = lines;
            return this;
        }

        /**
         * Sets whether native methods become contexts: each native {@code m} is renamed
         * {@code $jp$m} and a Java method {@code m} that calls it takes its place. Only for a JVM
         * whose native method prefix is {@code $jp$}
         * ({@code Instrumentation.setNativeMethodPrefix}), which binds {@code $jp$m} to the
         * implementation of {@code m}; elsewhere the renamed natives would not link.
         *
         * @param natives whether to wrap native methods, or {@code null} for off
         * @return this builder
         */
        public Builder natives(Boolean natives) {
            this.natives = natives;
            return this;
        }

        /**
         * Adds class patterns to instrument, such as {@code com.acme.**} (added to the
         * configuration file's).
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
         * Adds class patterns to leave out (added to the configuration file's).
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
         * Sets the configuration file ({@code jp.toml}), read once, when the rewriter is made.
         *
         * @param configFile the file, or {@code null} for none
         * @return this builder
         */
        public Builder configFile(Path configFile) {
            this.configFile = configFile == null ? null : Requests.absolute(configFile, "configFile");
            return this;
        }

        /**
         * Sets the directory where rewritten classes are kept between JVMs.
         *
         * @param cacheDir the directory, or {@code null} to rewrite every class at every load
         * @return this builder
         */
        public Builder cacheDir(Path cacheDir) {
            this.cacheDir = cacheDir == null ? null : Requests.absolute(cacheDir, "cacheDir");
            return this;
        }

        /**
         * Builds the settings.
         *
         * @return the settings
         */
        public ClassRewriterSettings build() {
            return new ClassRewriterSettings(this);
        }
    }
}
