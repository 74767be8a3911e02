package org.jpprof.runtime;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The periodic agent's snapshots: numbered profiles in one directory beside the profile at exit,
 * each holding what was handed over to the agent since the snapshot before it. Deltas rather than
 * cumulative snapshots, so that a file holds only the contexts that ran in its interval and the
 * series adds up, file by file, to the profile at exit ({@code jp report} merges them as any
 * profiles). Guarded by the agent's lock.
 */
final class SnapshotSeries {
    /** How a snapshot's file name starts; the number follows, zero-padded so that names sort. */
    static final String PREFIX = "snapshot-";
    /** {@code jp.output} as given, {@code %p} not yet replaced. */
    private final String output;
    /** Where the snapshots go; found at the first one, which empties it of an earlier run's. */
    private Path dir;
    private int written;
    /** What went to the agent's finished work since the last snapshot. */
    private ProfileTree interval = new ProfileTree();
    /** Each thread group's threads at the last snapshot. */
    private final Map<String, Long> threadsBefore = new HashMap<String, Long>();
    private boolean failureReported;

    SnapshotSeries(String output) {
        this.output = output;
    }

    /** {@code batch}, of {@code group}, went to the finished work: it is in the next snapshot. */
    void flushed(String group, IC batch) {
        interval.add(group, batch);
    }

    /**
     * Writes the next snapshot: the interval's work and {@code running}, the trees of threads
     * still running (read only at exit), by thread group. With {@code last} the series ends: its
     * last file is written again, grown, whenever work is handed over after it. A failure is said
     * once on stderr; the interval then stays for the next snapshot, so that the series still adds
     * up.
     */
    void write(DefaultAgent agent, Map<String, List<IC>> running, String trigger, long elapsedMillis, boolean last) {
        Path target = null;
        try {
            if (dir == null) dir = open(output);
            target = dir.resolve(String.format("%s%06d.jpprof", PREFIX, written + 1));
            long threads = 0;
            Map<String, Long> now = new HashMap<String, Long>();
            for (DefaultAgent.Group group : agent.allGroups()) {
                long count = group.threads.sum();
                Long before = threadsBefore.get(group.name);
                long started = count - (before == null ? 0 : before);
                if (started > 0) interval.group(group.name).threads = started;
                threads += started;
                now.put(group.name, count);
            }
            Map<String, String> meta = agent.meta(threads);
            meta.put("snapshot", Integer.toString(written + 1));
            meta.put("elapsed", Long.toString(elapsedMillis));
            meta.put("trigger", trigger);
            ProfileWriter.write(interval, running, meta, target);
            if (!last) {
                written++;
                interval = new ProfileTree();
                threadsBefore.putAll(now);
            }
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            if (!failureReported) {
                failureReported = true;
                Agents.warn("cannot write the snapshot " + (target == null ? "of " + output : target) + ": " + e);
            }
        }
    }

    /** The snapshots' directory for {@code output}: the profile's path without {@code .jpprof}, with {@code .snapshots}. */
    static Path directory(String output) {
        String profile = DefaultAgent.outputPath(output).toString();
        String base = profile.endsWith(".jpprof") ? profile.substring(0, profile.length() - ".jpprof".length()) : profile;
        return Paths.get(base + ".snapshots");
    }

    /** Creates the directory, or empties it of an earlier run's snapshots. */
    private static Path open(String output) throws IOException {
        Path dir = directory(output);
        Files.createDirectories(dir);
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, PREFIX + "*.jpprof")) {
            for (Path file : old) {
                Files.deleteIfExists(file);
            }
        }
        return dir;
    }
}
