package org.jpprof.runtime;

/**
 * What a probe's handler gets first (docs/profiling.md, "Probes"): the calling context the
 * probed instruction runs in, to add to named exact metrics there. A handler is a static method
 * {@code void name(ProbeContext context, Object receiver, Object[] arguments)}; the context is
 * valid only while the handler runs: adds after it returned count nowhere.
 */
public final class ProbeContext {
    /** The context of the probed instruction's method; null once the handler returned. */
    private IC ic;

    ProbeContext(IC ic) {
        this.ic = ic;
    }

    /**
     * Adds {@code n} to the exact metric {@code metric} of the context. The name is one word of
     * letters, digits and {@code -_.:}, a colon between two parts making the first a family that
     * counts the second too; {@code calls}, {@code bytecodes}, {@code allocations} and
     * {@code probe-errors} are the built-in metrics' and are refused, as are their parts.
     *
     * @throws IllegalArgumentException for a name that is not one word or is a built-in's
     */
    public void add(String metric, long n) {
        if (!isUserMetric(metric)) throw new IllegalArgumentException("not a probe's metric name: " + metric);
        IC context = ic;
        if (context != null) context.add(metric, n);
    }

    /** The method of the context, as a profile's frame names it ({@code com.acme.Dao.find(I)V}). */
    public String method() {
        IC context = ic;
        return context == null || context.mid == null ? null : context.mid.frame();
    }

    void close() {
        ic = null;
    }

    /** Whether {@code name} may be a probe's metric: the rule the engine checks in jp.toml too. */
    static boolean isUserMetric(String name) {
        if (name == null || name.isEmpty() || name.startsWith(":") || name.endsWith(":")) return false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
                    || c == '.' || c == ':')) {
                return false;
            }
        }
        String family = ProfileWriter.family(name);
        String head = family == null ? name : family;
        return !head.equals("calls") && !head.equals("bytecodes") && !head.equals("allocations")
                && !head.equals(Probes.ERRORS);
    }
}
