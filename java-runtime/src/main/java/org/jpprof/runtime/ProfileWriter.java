package org.jpprof.runtime;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a profile in the format of docs/profile-format.md, of the lowest version that holds it:
 * version 5 when it has call sites, else 4 when it has exact extra metrics (allocations, probes), else 3
 * when it has thread groups, else 2 when it has per-line counts, else 1. It is written from the finished
 * work and the trees of threads still running, merged as they are walked ({@link MergedWalk}):
 * writing takes no copy of the tree, only the frames' names and ids. A context that appears in a
 * running thread's tree while the profile is being written is left for the next write.
 */
final class ProfileWriter {
    private ProfileWriter() {}

    static final int FORMAT_VERSION = 1;
    /** The version of profiles with {@code line} records. */
    static final int LINES_FORMAT_VERSION = 2;
    /** The version of profiles with {@code thread} records. */
    static final int GROUPS_FORMAT_VERSION = 3;
    /** The version of profiles with {@code metric} and {@code value} records. */
    static final int METRICS_FORMAT_VERSION = 4;
    /** The version of profiles whose {@code node} records may name a call site. */
    static final int SITES_FORMAT_VERSION = 5;

    /**
     * Writes {@code target}: {@code finished} and the roots of threads still running, by thread
     * group name. A regular file (or a new one) is written atomically: a temporary file in the
     * same directory, created with the permissions the umask gives, then a rename. Anything else
     * that exists (a device such as /dev/null, a FIFO) is written into as it is: a rename would
     * replace it.
     */
    static void write(ProfileTree finished, Map<String, List<IC>> running, Map<String, String> meta, Path target)
            throws IOException {
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.WRITE)) {
                write(finished, running, meta, out);
            }
            return;
        }
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = createTemporary(dir);
        try {
            try (OutputStream out = Files.newOutputStream(temp)) {
                write(finished, running, meta, out);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * A new empty file in {@code dir}, with the default permissions: {@code Files.createTempFile}
     * would make it readable by its owner only.
     */
    private static Path createTemporary(Path dir) throws IOException {
        for (int attempt = 0;; attempt++) {
            Path temp = dir.resolve(".jp-" + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".jpprof.tmp");
            try {
                return Files.createFile(temp);
            } catch (FileAlreadyExistsException e) {
                if (attempt == 100) throw e;
            }
        }
    }

    private static void write(ProfileTree finished, Map<String, List<IC>> running, Map<String, String> meta,
            OutputStream stream) throws IOException {
        Writer out = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), 1 << 16);
        write(finished, running, meta, out);
        out.flush();
    }

    static void write(ProfileTree tree, Map<String, String> meta, Writer out) throws IOException {
        write(tree, Collections.<String, List<IC>>emptyMap(), meta, out);
    }

    /**
     * Two walks of the merged trees: the first writes every frame (the format wants them all
     * before the first thread record) and gathers the running threads' per-line counts, the
     * second writes the nodes, the contexts of no group first, then each group in name order, and
     * keeps their values, which follow the last node, in a {@link SpillBuffer}.
     */
    static void write(ProfileTree finished, Map<String, List<IC>> running, Map<String, String> meta, Writer out)
            throws IOException {
        Map<String, List<Object>> groups = new TreeMap<String, List<Object>>();
        for (Map.Entry<String, ProfileTree.Group> group : finished.groups.entrySet()) {
            listOf(groups, group.getKey()).add(group.getValue().root);
        }
        for (Map.Entry<String, List<IC>> group : running.entrySet()) {
            listOf(groups, group.getKey()).addAll(group.getValue());
        }
        List<Object> ungrouped = Collections.<Object>singletonList(finished.root);
        // The frame records wait for the header, whose version says whether a call site was seen.
        Frames frames = new Frames(finished.metrics);
        MergedWalk.walk(ungrouped, frames);
        for (List<Object> sources : groups.values()) {
            MergedWalk.walk(sources, frames);
        }
        // Running threads are in groups: without groups, finished holds every line count.
        boolean metrics = !frames.counted.isEmpty();
        out.write("jp-profile " + version(!groups.isEmpty(), !finished.lines.isEmpty(), metrics, frames.sites) + "\n");
        for (Map.Entry<String, String> entry : meta.entrySet()) {
            out.write("meta " + entry.getKey() + " " + escape(entry.getValue()) + "\n");
        }
        out.append(frames.records);
        Map<String, Integer> metricIds = writeMetrics(frames.counted, out);
        try (SpillBuffer values = new SpillBuffer()) {
            Nodes nodes = new Nodes(frames.ids, frames.sites, metricIds, finished.metrics, out, values);
            MergedWalk.walk(ungrouped, nodes);
            for (Map.Entry<String, List<Object>> group : groups.entrySet()) {
                ProfileTree.Group counted = finished.groups.get(group.getKey());
                long threads = counted == null ? 0 : counted.threads;
                out.write("thread " + Long.toUnsignedString(threads) + " " + escape(group.getKey()) + "\n");
                MergedWalk.walk(group.getValue(), nodes);
            }
            values.writeTo(out);
            writeLines(finished.lines, frames.runningLines, frames.ids, out);
            out.write("end " + nodes.count + "\n");
        }
    }

    /** The list of {@code group} in {@code byGroup}, added empty when new. */
    static <T> List<T> listOf(Map<String, List<T>> byGroup, String group) {
        List<T> list = byGroup.get(group);
        if (list == null) {
            list = new ArrayList<T>();
            byGroup.put(group, list);
        }
        return list;
    }

    /** The lowest version that holds what the profile has. */
    private static int version(boolean groups, boolean lines, boolean metrics, boolean sites) {
        if (sites) return SITES_FORMAT_VERSION;
        if (metrics) return METRICS_FORMAT_VERSION;
        if (groups) return GROUPS_FORMAT_VERSION;
        return lines ? LINES_FORMAT_VERSION : FORMAT_VERSION;
    }

    /**
     * The family of metric {@code name}: the part before its first colon, or null without one. A
     * metric counts in its family too ({@code allocations:int[]} in {@code allocations}), so that
     * a metric with parts is one name, not a new kind of record.
     */
    static String family(String name) {
        int colon = name.indexOf(':');
        return colon < 0 ? null : name.substring(0, colon);
    }

    /** The unit of an exact metric: allocations count objects, probes count events. */
    private static String unit(String name) {
        String family = family(name);
        return "allocations".equals(family == null ? name : family) ? "objects" : "events";
    }

    /**
     * The {@code metric} records of the counted metrics and their families, in name order (a
     * family before its parts). The ids by name: 0 for a name with a space (an allocated type may
     * have one in a class file, a metric's name may not), which counts in its family only.
     */
    private static Map<String, Integer> writeMetrics(Set<String> counted, Writer out) throws IOException {
        Set<String> names = new TreeSet<String>();
        for (String name : counted) {
            String family = family(name);
            if (family != null) names.add(family);
            names.add(name);
        }
        Map<String, Integer> ids = new HashMap<String, Integer>();
        int last = 0;
        for (String name : names) {
            if (hasSpace(name)) {
                ids.put(name, 0);
                continue;
            }
            ids.put(name, ++last);
            out.write("metric " + last + " " + escape(name) + " exact " + unit(name) + "\n");
        }
        return ids;
    }

    private static boolean hasSpace(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || Character.isSpaceChar(c)) return true;
        }
        return false;
    }

    /** The metrics of one source of a merged context: a running thread's context or a finished node. */
    private static MetricCounts metricsOf(Object source, Map<ProfileTree.Node, MetricCounts> finished) {
        if (source instanceof IC) return ((IC) source).metrics();
        return finished.isEmpty() ? null : finished.get(source);
    }

    /** The metrics of a merged context's {@code sources}, summed; null when none. */
    private static MetricCounts metrics(List<Object> sources, Map<ProfileTree.Node, MetricCounts> finished) {
        MetricCounts sum = null;
        for (Object source : sources) {
            MetricCounts counts = metricsOf(source, finished);
            if (counts == null) continue;
            // A new object: the sources' own are never changed.
            if (sum == null) sum = new MetricCounts();
            MetricCounts.add(sum, counts);
        }
        return sum;
    }

    /**
     * The first walk: numbers the frames in order of first use, gathering their records, sees
     * whether any context has a call site, gathers the names of the counted metrics, and sums the running
     * threads' lines.
     */
    private static final class Frames implements MergedWalk.Visitor {
        final Map<String, Integer> ids = new HashMap<String, Integer>();
        /** Lines counted by running threads, in objects of this write's own (finished's are never changed). */
        final Map<String, LineCounts> runningLines = new HashMap<String, LineCounts>();
        /** The frame records, one per method: no bigger than {@link #ids}. */
        final StringBuilder records = new StringBuilder();
        /** The names of the counted metrics. */
        final Set<String> counted = new HashSet<String>();
        private final Map<ProfileTree.Node, MetricCounts> finishedMetrics;
        boolean sites;

        Frames(Map<ProfileTree.Node, MetricCounts> finishedMetrics) {
            this.finishedMetrics = finishedMetrics;
        }

        @Override
        public boolean context(String frame, int site, long calls, long bytecodes, int depth, List<Object> sources) {
            if (!ids.containsKey(frame)) {
                int id = ids.size() + 1;
                ids.put(frame, id);
                records.append("frame ").append(id).append(' ').append(escape(frame)).append('\n');
            }
            sites |= site != MID.NO_SITE;
            // Names only: what they add up to is the second walk's.
            for (Object source : sources) {
                MetricCounts counts = metricsOf(source, finishedMetrics);
                for (int i = 0, n = counts == null ? 0 : counts.size(); i < n; i++) {
                    counted.add(counts.name(i));
                }
            }
            for (Object source : sources) {
                if (!(source instanceof IC)) continue;
                LineCounts lines = ((IC) source).lines();
                LineCounts sum = runningLines.get(frame);
                if (lines != null) runningLines.put(frame, LineCounts.add(sum, lines));
            }
            return true;
        }
    }

    /**
     * The second walk: the {@code node} records, numbered from 1 in file order, and the
     * {@code value} records of their metrics, which the format puts after every node.
     */
    private static final class Nodes implements MergedWalk.Visitor {
        private final Map<String, Integer> frames;
        /** Whether the header's version holds call sites. */
        private final boolean sites;
        /** The metrics' ids by name ({@link #writeMetrics}). */
        private final Map<String, Integer> metrics;
        /** The id of each metric's family, by the metric's name, for the names that have one. */
        private final Map<String, Integer> familyIds = new HashMap<String, Integer>();
        private final Map<ProfileTree.Node, MetricCounts> finishedMetrics;
        /** The {@code value} records, by node, then metric: they follow the last node. */
        private final SpillBuffer values;
        private final Writer out;
        private final StringBuilder line = new StringBuilder();
        /** The id of the context written last at each depth: a context's parent is at the depth above. */
        private int[] idAtDepth = new int[64];
        int count;

        Nodes(Map<String, Integer> frames, boolean sites, Map<String, Integer> metrics,
                Map<ProfileTree.Node, MetricCounts> finishedMetrics, Writer out, SpillBuffer values) {
            this.frames = frames;
            this.sites = sites;
            this.metrics = metrics;
            this.finishedMetrics = finishedMetrics;
            this.out = out;
            this.values = values;
            for (String name : metrics.keySet()) {
                String family = family(name);
                if (family != null) familyIds.put(name, metrics.get(family));
            }
        }

        @Override
        public boolean context(String frame, int site, long calls, long bytecodes, int depth, List<Object> sources)
                throws IOException {
            Integer frameId = frames.get(frame);
            // New since the first walk: in the next write.
            if (frameId == null || (site != MID.NO_SITE && !sites)) return false;
            int id = ++count;
            if (depth >= idAtDepth.length) idAtDepth = Arrays.copyOf(idAtDepth, idAtDepth.length * 2);
            idAtDepth[depth] = id;
            line.setLength(0);
            line.append("node ").append(id).append(' ')
                    .append(depth == 1 ? 0 : idAtDepth[depth - 1]).append(' ')
                    .append(frameId.intValue()).append(' ')
                    .append(Long.toUnsignedString(calls)).append(' ')
                    .append(Long.toUnsignedString(bytecodes));
            if (site != MID.NO_SITE) appendSite(site);
            out.append(line.append('\n'));
            if (!metrics.isEmpty()) appendValues(id, metrics(sources, finishedMetrics));
            return true;
        }

        /** The {@code value} records of node {@code id}: each metric's and each family's, by metric id. */
        private void appendValues(int id, MetricCounts counts) throws IOException {
            if (counts == null) return;
            TreeMap<Integer, Long> byMetric = new TreeMap<Integer, Long>();
            for (int i = 0; i < counts.size(); i++) {
                long count = counts.count(i);
                // A metric first seen after the first walk is in the next write.
                Integer metric = metrics.get(counts.name(i));
                if (metric == null || count == 0) continue;
                addTo(byMetric, metric, count);
                Integer family = familyIds.get(counts.name(i));
                if (family != null) addTo(byMetric, family, count);
            }
            for (Map.Entry<Integer, Long> value : byMetric.entrySet()) {
                line.setLength(0);
                line.append("value ").append(id).append(' ').append(value.getKey().intValue()).append(' ')
                        .append(Long.toUnsignedString(value.getValue().longValue())).append('\n');
                values.append(line);
            }
        }

        /** Adds {@code count} to {@code metric}'s value; nothing for id 0 (a name with a space). */
        private static void addTo(TreeMap<Integer, Long> byMetric, Integer metric, long count) {
            if (metric.intValue() == 0) return;
            Long sum = byMetric.get(metric);
            byMetric.put(metric, Long.valueOf(sum == null ? count : sum.longValue() + count));
        }

        /** {@code <bci>} or {@code <bci>:<line>}, after a space: a node's call site (version 5). */
        private void appendSite(int site) {
            line.append(' ').append(site & 0xFFFF);
            int sourceLine = site >>> 16;
            if (sourceLine != 0) line.append(':').append(sourceLine);
        }
    }

    /**
     * The {@code line} records, by frame id, then line: finished work's and the running threads'
     * summed into new objects; lines with no count are left out.
     */
    private static void writeLines(Map<String, LineCounts> finished, Map<String, LineCounts> running,
            final Map<String, Integer> frames, Writer out) throws IOException {
        Map<Integer, LineCounts> byId = new TreeMap<Integer, LineCounts>();
        for (Map.Entry<String, LineCounts> entry : finished.entrySet()) {
            Integer id = frames.get(entry.getKey());
            if (id != null) byId.put(id, LineCounts.add(null, entry.getValue()));
        }
        for (Map.Entry<String, LineCounts> entry : running.entrySet()) {
            Integer id = frames.get(entry.getKey());
            if (id != null) byId.put(id, LineCounts.add(byId.get(id), entry.getValue()));
        }
        StringBuilder line = new StringBuilder();
        for (Map.Entry<Integer, LineCounts> entry : byId.entrySet()) {
            LineCounts counts = entry.getValue();
            for (int i = 0; i < counts.counts.length; i++) {
                if (counts.counts[i] == 0) continue;
                line.setLength(0);
                line.append("line ").append(entry.getKey().intValue()).append(' ')
                        .append(counts.first + i).append(' ')
                        .append(Long.toUnsignedString(counts.counts[i])).append('\n');
                out.append(line);
            }
        }
    }

    /** {@code \} as {@code \\} and a line break as {@code \n}: one record per line. */
    static String escape(String text) {
        if (text.indexOf('\\') < 0 && text.indexOf('\n') < 0) return text;
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') out.append("\\\\");
            else if (c == '\n') out.append("\\n");
            else out.append(c);
        }
        return out.toString();
    }
}
