package org.jpprof.engine;

import java.util.ArrayList;
import java.util.Arrays;
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

    /** The agents the runtime knows by name; blank means the default one. */
    private static final List<String> BUILT_IN_AGENTS = Arrays.asList("", "default", "none");

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
     * Checks the agent and granularity settings of a build, so that a wrong one fails the build
     * instead of being warned about, and ignored, in each test JVM.
     *
     * @param agent {@link #AGENT}: blank, {@code default}, {@code none} or a binary class name;
     *     or {@code null}
     * @param granularity {@link #GRANULARITY}: a positive number, {@code _} between digits
     *     allowed; or {@code null}
     * @throws IllegalArgumentException naming the setting and what it takes
     */
    public static void check(String agent, String granularity) {
        if (agent != null && !isClassName(agent.trim()) && !BUILT_IN_AGENTS.contains(agent.trim())) {
            throw new IllegalArgumentException(AGENT + " = '" + agent + "' is neither a built-in agent ("
                    + String.join(", ", BUILT_IN_AGENTS.subList(1, BUILT_IN_AGENTS.size()))
                    + ") nor a class name (a class implementing org.jpprof.runtime.Profiler)");
        }
        if (granularity != null && !isPositiveNumber(granularity.trim())) {
            throw new IllegalArgumentException(GRANULARITY + " = '" + granularity
                    + "' is not a positive number of bytecodes (digits, '_' allowed between them: 10_000_000)");
        }
    }

    private static boolean isClassName(String name) {
        for (String part : name.split("\\.", -1)) {
            if (part.isEmpty() || !Character.isJavaIdentifierStart(part.charAt(0))) {
                return false;
            }
            for (int i = 1; i < part.length(); i++) {
                if (!Character.isJavaIdentifierPart(part.charAt(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean isPositiveNumber(String text) {
        if (!text.matches("[0-9]+(_+[0-9]+)*")) {
            return false;
        }
        try {
            return Long.parseLong(text.replace("_", "")) > 0;
        } catch (NumberFormatException e) {
            return false; // beyond a long
        }
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
