package org.jpprof.agent;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jpprof.engine.ClassRewriterSettings;
import org.jpprof.engine.InstrumentRequest;

/**
 * The agent's options, the text after {@code =} in {@code -javaagent:jp-agent.jar=OPTIONS}:
 * {@code key=value} pairs separated by commas, such as
 * {@code include=com.acme.**,bba=precise,cache=/tmp/jp}. {@code include} and {@code exclude} may
 * be given again, and each takes several patterns separated by {@code ;}; every other key at most
 * once. Relative paths are relative to the working directory.
 */
final class AgentOptions {
    /** Every key, for the message about one that is not. */
    static final String KEYS = "include, exclude, bba, lines, config, cache";
    /** The value of {@code cache} that turns the cache off. */
    static final String NO_CACHE = "none";

    private final List<String> include = new ArrayList<>();
    private final List<String> exclude = new ArrayList<>();
    private InstrumentRequest.Bba bba;
    private Boolean lines;
    private Path configFile;
    private String cache;

    private AgentOptions() {}

    /**
     * Reads the options.
     *
     * @param text the options, or {@code null} (no {@code =} after the jar) for none
     * @return the options
     * @throws IllegalArgumentException for an option that is not one, naming it and what is wrong
     */
    static AgentOptions parse(String text) {
        AgentOptions options = new AgentOptions();
        if (text == null) {
            return options;
        }
        for (String option : text.split(",", -1)) {
            if (option.trim().isEmpty()) {
                continue;
            }
            int equals = option.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException("option \"" + option + "\" is not key=value"
                        + " (keys: " + KEYS + ")");
            }
            options.set(option.substring(0, equals).trim(), option.substring(equals + 1).trim());
        }
        return options;
    }

    private void set(String key, String value) {
        if (value.isEmpty()) {
            throw new IllegalArgumentException("option " + key + " has no value");
        }
        switch (key) {
            case "include":
                addPatterns(include, value);
                break;
            case "exclude":
                addPatterns(exclude, value);
                break;
            case "bba":
                once(key, bba);
                bba = InstrumentRequest.Bba.named(value);
                break;
            case "lines":
                once(key, lines);
                if (!value.equals("true") && !value.equals("false")) {
                    throw new IllegalArgumentException("lines is \"" + value + "\", not true or false");
                }
                lines = Boolean.valueOf(value);
                break;
            case "config":
                once(key, configFile);
                configFile = Paths.get(value);
                break;
            case "cache":
                once(key, cache);
                cache = value;
                break;
            default:
                throw new IllegalArgumentException("unknown option \"" + key + "\" (keys: " + KEYS
                        + ")");
        }
    }

    private static void once(String key, Object previous) {
        if (previous != null) {
            throw new IllegalArgumentException("option " + key + " is given twice");
        }
    }

    /** Patterns are checked by the engine, with the rest of the settings, when the agent starts. */
    private static void addPatterns(List<String> to, String value) {
        for (String pattern : value.split(";")) {
            if (!pattern.trim().isEmpty()) {
                to.add(pattern.trim());
            }
        }
    }

    /** @return the include patterns, in order */
    List<String> include() {
        return Collections.unmodifiableList(include);
    }

    /** @return the exclude patterns, in order */
    List<String> exclude() {
        return Collections.unmodifiableList(exclude);
    }

    /** @return the analysis, or {@code null} for the configuration file's or the default */
    InstrumentRequest.Bba bba() {
        return bba;
    }

    /** @return whether lines are counted, or {@code null} for the configuration file's or off */
    Boolean lines() {
        return lines;
    }

    /** @return the {@code jp.toml}, or {@code null} for none */
    Path configFile() {
        return configFile;
    }

    /** @return whether {@code cache=none} turned the cache off */
    boolean cacheOff() {
        return NO_CACHE.equals(cache);
    }

    /** @return the cache directory given, or {@code null} for the default (or none) */
    Path cacheDir() {
        return cache == null || cacheOff() ? null : Paths.get(cache);
    }

    /**
     * The engine's settings of these options.
     *
     * @param cacheDir the cache directory in effect, or {@code null} for none
     * @param natives whether native methods are wrapped (the JVM binds the renamed ones)
     * @return the settings
     */
    ClassRewriterSettings settings(Path cacheDir, boolean natives) {
        return ClassRewriterSettings.builder()
                .bba(bba)
                .lines(lines)
                .natives(natives)
                .include(include)
                .exclude(exclude)
                .configFile(configFile)
                .cacheDir(cacheDir)
                .build();
    }
}
