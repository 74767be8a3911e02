package org.jpprof.gradle;

import org.gradle.api.provider.Provider;

/**
 * A task setting: the value the build script set, else the plugin's convention, a provider read
 * only when the task asks (so that the {@code jp { }} block may come anywhere in the build
 * script, and nothing waits for the end of its evaluation). Gradle's own {@code Property} has
 * conventions only since 5.1; this keeps one way for every Gradle JP runs on.
 *
 * @param <T> the value's type
 */
final class Setting<T> {
    private T value;
    private Provider<? extends T> convention;

    /** @return the value set, else the convention's, else {@code null} */
    T get() {
        if (value != null) return value;
        return convention == null ? null : convention.getOrNull();
    }

    /** @param value the build script's value; {@code null} falls back to the convention */
    void set(T value) {
        this.value = value;
    }

    /** @param convention the plugin's value, for when the build script set none */
    void convention(Provider<? extends T> convention) {
        this.convention = convention;
    }
}
