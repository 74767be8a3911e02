package org.jpprof.gradle;

/**
 * The {@code jp { }} block of a {@code Test} task: whether the task runs its tests on instrumented
 * classes with JP's runtime, each test JVM writing a profile into
 * {@code build/jp/profiles/<task>/}.
 *
 * <pre>
 * test {
 *     jp {
 *         enabled = true
 *     }
 * }
 * </pre>
 *
 * <p>On by default for {@code jpProfileTest} only; the project's {@code jp { }} block gives how
 * classes are instrumented and which agent runs, for every task alike.
 */
public class JpTestExtension {
    private boolean enabled;

    /** @return whether the task runs its tests instrumented and writes profiles */
    public boolean getEnabled() {
        return enabled;
    }

    /** @param enabled whether the task runs its tests instrumented and writes profiles */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }
}
