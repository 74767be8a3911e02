package org.jpprof.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The system properties that JP's runtime reads in a JVM running instrumented classes
 * (docs/runtime.md), as the build plugins pass them to test JVMs and IDE run configurations.
 */
public final class RuntimeOptions {
    /** Where the default agent writes the profile; {@code %p} becomes the process id. */
    public static final String OUTPUT = "jp.output";
    /** The agent: {@code default}, {@code none}, or a class implementing the runtime's Profiler. */
    public static final String AGENT = "jp.agent";
    /** Bytecodes between two calls of the agent's {@code report}. */
    public static final String GRANULARITY = "jp.granularity";

    private RuntimeOptions() {}

    /**
     * The runtime's properties, in a fixed order, leaving out those that are {@code null} (the
     * runtime's defaults then apply).
     *
     * @param output {@link #OUTPUT}, or {@code null}
     * @param agent {@link #AGENT}, or {@code null}
     * @param granularity {@link #GRANULARITY} (a number, as text), or {@code null}
     * @return the properties, by name
     */
    public static Map<String, String> properties(String output, String agent, String granularity) {
        Map<String, String> properties = new LinkedHashMap<>();
        if (output != null) {
            properties.put(OUTPUT, output);
        }
        if (agent != null) {
            properties.put(AGENT, agent);
        }
        if (granularity != null) {
            properties.put(GRANULARITY, granularity);
        }
        return properties;
    }

    /**
     * The properties as JVM options, {@code -Dname=value} each, unquoted.
     *
     * @param properties the properties
     * @return the options, in the map's order
     */
    public static List<String> jvmArgs(Map<String, String> properties) {
        List<String> args = new ArrayList<>();
        for (Map.Entry<String, String> property : properties.entrySet()) {
            args.add("-D" + property.getKey() + "=" + property.getValue());
        }
        return args;
    }
}
