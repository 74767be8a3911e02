package org.jpprof.engine;

import java.util.Map;

/** Reading the outcomes of the gate's requests, of hooked jars and of class rewrites. */
final class GateJson {
    private GateJson() {}

    /**
     * The outcome {@code json} as an object.
     *
     * @param json the outcome's JSON
     * @return its fields
     * @throws IllegalArgumentException if it is not a JSON object
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String json) {
        Object value = Json.parse(json);
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException("the outcome is not a JSON object");
        }
        return (Map<String, Object>) value;
    }

    /**
     * A count of an outcome.
     *
     * @param json the outcome's fields
     * @param key the field
     * @return the count
     * @throws IllegalArgumentException if the field is not a count
     */
    static int count(Map<String, Object> json, String key) {
        Object value = json.get(key);
        if (!(value instanceof Long) || (Long) value < 0 || (Long) value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("\"" + key + "\" is not a count: " + value);
        }
        return (int) (long) (Long) value;
    }
}
