package org.jpprof.engine;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What an instrument request did: the engine's outcome, read from the JSON of docs/engine-json.md.
 * A class is counted once: {@code rewritten}, {@code reused} or {@code unchanged}. Errors are per
 * input file: a file with an error produced no output, and the others were still instrumented.
 * Instances are immutable.
 */
public final class InstrumentResult {
    /** A file and a sentence about it: a warning, an error or why a file was skipped. */
    public static final class Diagnostic {
        private final String path;
        private final String message;

        Diagnostic(String path, String message) {
            this.path = path;
            this.message = message;
        }

        /**
         * The file, displayed as the engine shows it ({@code libs/app.jar!com/acme/Foo.class}
         * for a jar entry).
         *
         * @return the file
         */
        public String path() {
            return path;
        }

        /**
         * What happened to it.
         *
         * @return the message, or for a skipped file the reason
         */
        public String message() {
            return message;
        }

        /** @return {@code path: message} */
        @Override
        public String toString() {
            return path + ": " + message;
        }
    }

    private final int rewritten;
    private final int reused;
    private final int copied;
    private final int unchanged;
    private final int deleted;
    private final List<Diagnostic> skipped;
    private final List<Diagnostic> warnings;
    private final List<Diagnostic> errors;
    private final long engineMillis;

    private InstrumentResult(Map<String, Object> json) {
        this.rewritten = count(json, "rewritten");
        this.reused = count(json, "reused");
        this.copied = count(json, "copied");
        this.unchanged = count(json, "unchanged");
        this.deleted = count(json, "deleted");
        this.skipped = diagnostics(json, "skipped", "reason");
        this.warnings = diagnostics(json, "warnings", "message");
        this.errors = diagnostics(json, "errors", "message");
        this.engineMillis = number(json, "engineMillis");
    }

    /**
     * Reads the engine's outcome. Keys this facade does not know are ignored; every key that it
     * knows must be there with the right type.
     *
     * @param json the outcome's JSON
     * @return the result
     * @throws IllegalArgumentException if {@code json} is not an outcome
     */
    static InstrumentResult fromJson(String json) {
        Object value = Json.parse(json);
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException("the outcome is not a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) value;
        return new InstrumentResult(map);
    }

    /** @return classes rewritten by this run */
    public int rewritten() {
        return rewritten;
    }

    /**
     * @return classes whose rewritten output came from the cache, or was in the output already
     */
    public int reused() {
        return reused;
    }

    /** @return files other than classes, copied */
    public int copied() {
        return copied;
    }

    /**
     * @return classes written as they were: excluded by the patterns, with nothing to rewrite, or
     *     kept whole (then also in {@link #skipped()})
     */
    public int unchanged() {
        return unchanged;
    }

    /** @return outputs deleted because their input is gone (runs with a cache directory) */
    public int deleted() {
        return deleted;
    }

    /** @return classes kept whole, each with the reason */
    public List<Diagnostic> skipped() {
        return skipped;
    }

    /**
     * @return methods kept as they were, each with the reason, and damaged cache entries that
     *     were recomputed
     */
    public List<Diagnostic> warnings() {
        return warnings;
    }

    /** @return input files that produced no output, each with the whole chain of causes */
    public List<Diagnostic> errors() {
        return errors;
    }

    /** @return how long the engine worked, in milliseconds */
    public long engineMillis() {
        return engineMillis;
    }

    /** @return whether any input failed */
    public boolean hasErrors() {
        return !errors.isEmpty();
    }

    /**
     * The message of a build step that fails because inputs could not be instrumented.
     *
     * @return {@code N input(s) could not be instrumented:} and one indented line per error
     */
    public String errorMessage() {
        StringBuilder message = new StringBuilder();
        message.append(errors.size()).append(errors.size() == 1 ? " input" : " inputs")
                .append(" could not be instrumented:");
        for (Diagnostic error : errors) {
            message.append("\n  ").append(error);
        }
        return message.toString();
    }

    /** @return a one-line summary of the counts */
    @Override
    public String toString() {
        return rewritten + " rewritten, " + reused + " reused, " + copied + " copied, " + unchanged
                + " unchanged, " + deleted + " deleted, " + skipped.size() + " skipped, "
                + warnings.size() + " warnings, " + errors.size() + " errors in " + engineMillis
                + " ms";
    }

    private static Object field(Map<String, Object> json, String key) {
        if (!json.containsKey(key)) {
            throw new IllegalArgumentException("the outcome has no \"" + key + "\"");
        }
        return json.get(key);
    }

    private static long number(Map<String, Object> json, String key) {
        Object value = field(json, key);
        if (!(value instanceof Long) || (Long) value < 0) {
            throw new IllegalArgumentException(
                    "\"" + key + "\" is not a count: " + describe(value));
        }
        return (Long) value;
    }

    private static int count(Map<String, Object> json, String key) {
        long value = number(json, key);
        if (value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("\"" + key + "\" is too large: " + value);
        }
        return (int) value;
    }

    private static List<Diagnostic> diagnostics(
            Map<String, Object> json, String key, String messageKey) {
        Object value = field(json, key);
        if (!(value instanceof List)) {
            throw new IllegalArgumentException("\"" + key + "\" is not a list: " + describe(value));
        }
        List<Diagnostic> list = new ArrayList<>();
        for (Object item : (List<?>) value) {
            if (!(item instanceof Map)) {
                throw new IllegalArgumentException(
                        "an item of \"" + key + "\" is not an object: " + describe(item));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> object = (Map<String, Object>) item;
            list.add(new Diagnostic(string(object, key, "path"), string(object, key, messageKey)));
        }
        return Collections.unmodifiableList(list);
    }

    private static String string(Map<String, Object> object, String list, String key) {
        Object value = object.get(key);
        if (!(value instanceof String)) {
            throw new IllegalArgumentException("an item of \"" + list + "\" has no string \"" + key
                    + "\": " + describe(value));
        }
        return (String) value;
    }

    private static String describe(Object value) {
        if (value == null) {
            return "null";
        } else if (value instanceof String) {
            return "the string \"" + value + "\"";
        } else if (value instanceof Long || value instanceof BigDecimal) {
            return "the number " + value;
        }
        return "a " + value.getClass().getSimpleName();
    }
}
