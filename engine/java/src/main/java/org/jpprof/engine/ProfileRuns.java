package org.jpprof.engine;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The profiles of test runs, each run in a directory of its own under a base directory
 * ({@code run-<UTC time>-<random>}), so that two builds of one project at once do not remove or
 * merge each other's profiles. A report reads one run.
 *
 * <p>A run in progress holds a lock on the file {@code .lock} in its directory, from {@link #start}
 * until {@link #finish} or the end of the JVM. Starting a run removes the earlier runs, except
 * those whose lock is held and the newest finished one, which a build that has just finished its
 * tests may still be reporting.
 */
public final class ProfileRuns {
    private static final String PREFIX = "run-";
    private static final String LOCK = ".lock";
    /** A run's directory while it is being made, before it is locked and renamed. */
    private static final String STAGING = ".new-";
    /** The locks of the runs this JVM has going, by run directory. */
    private static final Map<Path, FileLock> HELD = new ConcurrentHashMap<>();
    private static final AtomicLong LAST_START = new AtomicLong();

    private ProfileRuns() {}

    /**
     * Starts a run: creates and locks its directory under {@code base}, and removes earlier runs
     * as the class comment says.
     *
     * @param base the directory of the runs, created if missing
     * @return the new run's directory
     * @throws IOException if a directory cannot be created or an old run cannot be removed
     */
    public static Path start(Path base) throws IOException {
        Files.createDirectories(base);
        SimpleDateFormat time = new SimpleDateFormat("yyyyMMdd-HHmmss-SSS");
        time.setTimeZone(TimeZone.getTimeZone("UTC"));
        // Later runs of this JVM sort after earlier ones even within one millisecond.
        long millis = LAST_START.updateAndGet(last -> Math.max(System.currentTimeMillis(), last + 1));
        String name = PREFIX + time.format(new Date(millis))
                + String.format("-%08x", ThreadLocalRandom.current().nextInt());
        Path run = base.resolve(name);
        // Locked before it is visible as a run, so that no other build takes it for a finished one.
        Path staging = Files.createDirectory(base.resolve(STAGING + name));
        FileChannel channel = FileChannel.open(staging.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            FileLock lock = channel.lock();
            Files.move(staging, run, StandardCopyOption.ATOMIC_MOVE);
            HELD.put(run, lock);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        removeFinished(base, run);
        return run;
    }

    /**
     * Ends a run that this JVM started: releases its lock. Does nothing for other runs.
     *
     * @param run the run's directory
     */
    public static void finish(Path run) {
        FileLock lock = HELD.remove(run);
        if (lock != null) {
            try {
                lock.channel().close();
            } catch (IOException e) {
                // The lock goes with the channel's file descriptor, at the latest when the JVM ends.
            }
        }
    }

    /**
     * The newest run under {@code base} that has profiles: a build that stopped before its tests
     * ran leaves an empty run, which should not hide the run before it.
     *
     * @param base the directory of the runs
     * @return the run's directory, or {@code null} when there is none
     * @throws IOException if {@code base} or a run cannot be listed
     */
    public static Path latest(Path base) throws IOException {
        List<Path> newestFirst = runs(base);
        Collections.reverse(newestFirst);
        for (Path run : newestFirst) {
            if (!profiles(run).isEmpty()) {
                return run;
            }
        }
        return null;
    }

    /**
     * The profiles ({@code *.jpprof}) of a run, in name order.
     *
     * @param run the run's directory; none for {@code null} or a missing directory
     * @return the profiles
     * @throws IOException if the directory cannot be listed
     */
    public static List<Path> profiles(Path run) throws IOException {
        List<Path> profiles = new ArrayList<>();
        if (run == null || !Files.isDirectory(run)) {
            return profiles;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(run, "*.jpprof")) {
            for (Path file : files) {
                if (Files.isRegularFile(file)) {
                    profiles.add(file);
                }
            }
        }
        Collections.sort(profiles);
        return profiles;
    }

    /** The run directories under {@code base}, oldest first (their names start with the time). */
    private static List<Path> runs(Path base) throws IOException {
        List<Path> runs = new ArrayList<>();
        if (!Files.isDirectory(base)) {
            return runs;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base, PREFIX + "*")) {
            for (Path dir : dirs) {
                if (Files.isDirectory(dir)) {
                    runs.add(dir);
                }
            }
        }
        Collections.sort(runs);
        return runs;
    }

    /** Removes the finished runs under {@code base}, but for the newest of them, and not {@code current}. */
    private static void removeFinished(Path base, Path current) throws IOException {
        List<Path> newestFirst = runs(base);
        Collections.reverse(newestFirst);
        boolean keptOne = false;
        for (Path run : newestFirst) {
            if (run.equals(current) || HELD.containsKey(run)) {
                continue;
            }
            try (FileChannel channel =
                    FileChannel.open(run.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                if (channel.tryLock() == null) {
                    continue; // in progress in another process
                }
                if (keptOne) {
                    deleteTree(run);
                }
                keptOne = true;
            } catch (OverlappingFileLockException e) {
                // in progress in another build of this JVM
            } catch (NoSuchFileException e) {
                // removed by another build meanwhile
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        List<Path> paths = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.forEach(paths::add);
        } catch (NoSuchFileException e) {
            return;
        }
        Collections.reverse(paths);
        for (Path path : paths) {
            Files.deleteIfExists(path);
        }
    }
}
