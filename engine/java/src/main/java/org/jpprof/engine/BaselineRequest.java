package org.jpprof.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Which profiles to record in a baseline file, for the regression gate: the engine's baseline
 * request (docs/regression-testing.md). Build one with {@link #builder()}:
 *
 * <pre>{@code
 * engine.baseline(BaselineRequest.builder()
 *         .profiles(profileFiles).out(Paths.get("jp-baseline.txt")).include("com.acme.**").build());
 * }</pre>
 *
 * <p>The include and exclude patterns are the ones the classes were instrumented with: the baseline
 * records them, and a check refuses profiles instrumented otherwise. It crosses to the engine as
 * the JSON of docs/engine-json.md ({@link #toJson()}). Instances are immutable.
 */
public final class BaselineRequest {
    private final List<Path> profiles;
    private final Path out;
    private final Long methodFloor;
    private final String metric;
    private final List<String> include;
    private final List<String> exclude;
    private final Path keepProfiles;

    private BaselineRequest(Builder builder) {
        this.profiles = Requests.frozen(builder.profiles);
        this.out = builder.out;
        this.methodFloor = builder.methodFloor;
        this.metric = builder.metric;
        this.include = Requests.frozen(builder.include);
        this.exclude = Requests.frozen(builder.exclude);
        this.keepProfiles = builder.keepProfiles;
    }

    /**
     * Starts a request.
     *
     * @return an empty builder, with the engine's default method floor
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the profiles, absolute, in order */
    public List<Path> profiles() {
        return profiles;
    }

    /** @return the baseline file, absolute */
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
        Requests.path(json.append(','), "out", out);
        json.append(",\"methodFloor\":").append(methodFloor == null ? "null" : methodFloor.toString());
        json.append(",\"metric\":");
        Json.writeString(json, metric);
        Requests.list(json.append(','), "include", include);
        Requests.list(json.append(','), "exclude", exclude);
        Requests.path(json.append(','), "keepProfiles", keepProfiles);
        return json.append('}').toString();
    }

    @Override
    public String toString() {
        return toJson();
    }

    /** Builds a {@link BaselineRequest}. Every method returns this builder. */
    public static final class Builder {
        private final List<Path> profiles = new ArrayList<>();
        private Path out;
        private Long methodFloor;
        private String metric;
        private final List<String> include = new ArrayList<>();
        private final List<String> exclude = new ArrayList<>();
        private Path keepProfiles;

        private Builder() {}

        /**
         * Adds profiles of the run, in order; all are merged.
         *
         * @param profiles the profiles
         * @return this builder
         */
        public Builder profiles(Collection<? extends Path> profiles) {
            Requests.addAbsolute(this.profiles, profiles, "profile");
            return this;
        }

        /**
         * Sets the baseline file (required), written atomically.
         *
         * @param out the file
         * @return this builder
         */
        public Builder out(Path out) {
            this.out = Requests.absolute(out, "out");
            return this;
        }

        /**
         * Records only methods with at least this many own bytecodes; tests are always recorded.
         *
         * @param bytecodes 0 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code bytecodes} is negative
         */
        public Builder methodFloor(long bytecodes) {
            if (bytecodes < 0) {
                throw new IllegalArgumentException("the method floor is " + bytecodes);
            }
            this.methodFloor = bytecodes;
            return this;
        }

        /**
         * Records and gates this metric instead of bytecodes: {@code calls}, or an exact extra
         * metric of the profiles ({@code allocations}, {@code allocations:int[]}, a probe's).
         *
         * @param name the metric's name, as {@code jp baseline --metric} takes it
         * @return this builder
         * @throws IllegalArgumentException if {@code name} is empty
         */
        public Builder metric(String name) {
            if (name.isEmpty()) {
                throw new IllegalArgumentException("the metric's name is empty");
            }
            this.metric = name;
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
         * Keeps a copy of the profiles in this directory, replacing what it held, for checks to
         * diff against (their {@link CheckRequest.Builder#diffBase}).
         *
         * @param dir the directory
         * @return this builder
         */
        public Builder keepProfiles(Path dir) {
            this.keepProfiles = Requests.absolute(dir, "keepProfiles");
            return this;
        }

        /**
         * Builds the request.
         *
         * @return the request
         * @throws IllegalStateException if no profile or no file was set
         */
        public BaselineRequest build() {
            if (profiles.isEmpty()) {
                throw new IllegalStateException("a baseline request needs at least one profile");
            }
            if (out == null) {
                throw new IllegalStateException("a baseline request needs a baseline file (out)");
            }
            return new BaselineRequest(this);
        }
    }
}
