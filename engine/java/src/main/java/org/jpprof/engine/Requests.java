package org.jpprof.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** What the engine's request classes share: absolute paths, frozen lists and their JSON. */
final class Requests {
    private Requests() {}

    /** {@code path} made absolute (against {@code user.dir}) and normalized; requests use no other. */
    static Path absolute(Path path, String what) {
        return Objects.requireNonNull(path, what).toAbsolutePath().normalize();
    }

    /** Adds each of {@code paths} to {@code to}, made absolute, in order. */
    static void addAbsolute(List<Path> to, Collection<? extends Path> paths, String what) {
        for (Path path : paths) {
            to.add(absolute(path, what));
        }
    }

    /** An unmodifiable copy of {@code list}, for a request's field. */
    static <T> List<T> frozen(List<T> list) {
        return Collections.unmodifiableList(new ArrayList<>(list));
    }

    /**
     * Appends {@code "key":[...]} with {@code values} as strings.
     *
     * @param json where to write
     * @param key the field
     * @param values the strings ({@code toString()} of each)
     * @return {@code json}
     */
    static StringBuilder list(StringBuilder json, String key, List<?> values) {
        json.append('"').append(key).append("\":[");
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            Json.writeString(json, values.get(i).toString());
        }
        return json.append(']');
    }

    /**
     * Appends {@code "key":"path"}, or {@code "key":null}.
     *
     * @param json where to write
     * @param key the field
     * @param path the path, or {@code null}
     * @return {@code json}
     */
    static StringBuilder path(StringBuilder json, String key, Path path) {
        json.append('"').append(key).append("\":");
        Json.writeString(json, path == null ? null : path.toString());
        return json;
    }
}
