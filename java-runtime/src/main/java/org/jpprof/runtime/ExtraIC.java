package org.jpprof.runtime;

/**
 * The context of a method whose class counts more than invocations and bytecodes: bytecodes per
 * source line, or exact extra metrics (allocations, probes' counts). Its class's table says so
 * ({@link MID#extra}). Other contexts, nearly all of them without those options, are 8 bytes
 * smaller: a large program's tree holds millions.
 */
class ExtraIC extends IC {
    /** Bytecodes per source line; null while none. */
    private LineCounts lines;
    /** The exact extra metrics; null while none. */
    private MetricCounts metrics;

    ExtraIC(MID mid, IC parent) {
        super(mid, parent);
    }

    /** {@link IC#line}. */
    final void addLine(int line, int n) {
        LineCounts counts = lines;
        if (counts == null || line < counts.first || line - counts.first >= counts.counts.length) {
            counts = lines = LineCounts.covering(counts, line);
        }
        counts.counts[line - counts.first] += n;
    }

    /** {@link IC#add}. */
    final void addMetric(String name, long n) {
        MetricCounts counts = metrics;
        if (counts == null) counts = metrics = new MetricCounts();
        counts.add(name, n);
    }

    final LineCounts lineCounts() {
        return lines;
    }

    final MetricCounts metricCounts() {
        return metrics;
    }

    /** Whether any line or metric is counted here. */
    final boolean hasCounts() {
        return lines != null || metrics != null;
    }

    /** Adds the lines and metrics of {@code from}, a context of the same method. */
    final void addCounts(ExtraIC from) {
        lines = LineCounts.add(lines, from.lines);
        metrics = MetricCounts.add(metrics, from.metrics);
    }

    /** Moves the lines and metrics to {@code copy} (which has none) and forgets them here. */
    final void moveCountsTo(ExtraIC copy) {
        copy.lines = lines;
        copy.metrics = metrics;
        lines = null;
        metrics = null;
    }
}
