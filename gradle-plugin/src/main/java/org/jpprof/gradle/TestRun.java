package org.jpprof.gradle;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.gradle.api.Action;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.file.ConfigurableFileTree;
import org.gradle.api.file.FileCollection;
import org.gradle.api.file.FileTreeElement;
import org.gradle.api.provider.Provider;
import org.gradle.api.specs.Spec;
import org.gradle.api.tasks.testing.Test;
import org.gradle.api.tasks.testing.TestDescriptor;
import org.gradle.api.tasks.testing.TestListener;
import org.gradle.api.tasks.testing.TestResult;
import org.jpprof.engine.ProfileRuns;
import org.jpprof.engine.RuntimeOptions;

/**
 * The profiles of a profiled test task in this build: a run directory of its own under
 * {@code build/jp/profiles/<task>/} ({@link ProfileRuns}), so that two builds of the project at
 * once neither remove nor merge each other's profiles. The test task starts the run when it starts
 * and ends it when its tests are done; {@code jpReport} reads this run, or, when the test task did
 * not run in this build, the newest one with profiles.
 *
 * <p>The task's declared output is not the directory of the runs but one file beside it,
 * {@code <task>.run}, naming the task's newest run and replaced atomically when a run starts:
 * Gradle hashes a task's outputs before and after it runs, and another build of the project
 * creating, renaming or removing runs in that directory meanwhile failed the hashing ("Failed to
 * create MD5 hash for file ..."). Whether the task is up to date then also asks that a run with
 * profiles is still there, and its result is never taken from the build cache, which would bring
 * back the marker without the run.
 *
 * <p>Which run the report reads is decided when it runs, not when the build is configured: with
 * the configuration cache, configuration happens once, before any run. It is the run this JVM
 * started last for the task (kept in a static map, since the configuration cache gives each task
 * its own copy of this object), else the run the marker names, else the newest with profiles.
 */
final class TestRun {
    /** The directory of a run that its test JVMs' JFR recordings go into. */
    static final String RECORDINGS = "jfr";

    /** The run each task directory's test task started last in this JVM, by directory. */
    private static final Map<File, Path> STARTED = new ConcurrentHashMap<>();

    private final Provider<File> base;
    private final String prefix;

    /**
     * @param base the directory of the task's runs, read when needed (the build script may move
     *     the build directory after the plugin is applied)
     * @param prefix the profiles' name before {@code -<pid>.jpprof}
     */
    TestRun(Provider<File> base, String prefix) {
        this.base = base;
        this.prefix = prefix;
    }

    /** @return the directory of the task's runs */
    File base() {
        return base.get();
    }

    /** @return the file naming the task's newest run, its declared output */
    File marker() {
        return new File(base().getParentFile(), base().getName() + ".run");
    }

    /** @return whether a run with profiles is there to report on */
    Spec<Task> hasProfiles() {
        return new Spec<Task>() {
            @Override
            public boolean isSatisfiedBy(Task task) {
                try {
                    return ProfileRuns.latest(base().toPath()) != null;
                } catch (IOException e) {
                    return false;
                }
            }
        };
    }

    /**
     * The first action of the test task when it profiles: starts the run (which removes old ones)
     * and tells the test JVMs where to write (an absolute path, set only now so that the task's
     * inputs stay relocatable for the build cache) and the runtime's other settings; with {@code
     * jfr}, has each test JVM record JFR into the run's {@value #RECORDINGS} directory (a directory
     * as the file name: each JVM writes a recording of its own there, named after its pid).
     *
     * @param profiling whether the task profiles ({@code jp.enabled}, and JP not skipped)
     * @param runtime the runtime's system properties ({@code jp.agent}, {@code jp.granularity})
     * @param jfr whether to record JFR ({@code jp.jfr})
     */
    Action<Task> starter(
            final Provider<Boolean> profiling,
            final Provider<Map<String, String>> runtime,
            final Provider<Boolean> jfr) {
        return new Action<Task>() {
            @Override
            public void execute(Task task) {
                if (!profiling.get()) return;
                File base = base();
                Path run;
                try {
                    run = ProfileRuns.start(base.toPath());
                    writeMarker(run);
                } catch (IOException e) {
                    throw new GradleException("jp: cannot start a run of profiles in " + base + ": " + e, e);
                }
                STARTED.put(base.getAbsoluteFile(), run);
                File output = new File(run.toFile(), prefix + "-%p.jpprof");
                Test test = (Test) task;
                test.systemProperties(runtime.get());
                test.systemProperty(RuntimeOptions.OUTPUT, output.getAbsolutePath());
                if (jfr.get()) {
                    File recordings = new File(run.toFile(), RECORDINGS);
                    if (!recordings.mkdirs()) {
                        throw new GradleException("jp: cannot create " + recordings);
                    }
                    test.jvmArgs("-XX:StartFlightRecording=filename=" + recordings.getAbsolutePath() + ",settings=profile");
                }
            }
        };
    }

    /** Names {@code run} in the marker, replacing it at once (a temporary file renamed over it). */
    private void writeMarker(Path run) throws IOException {
        Path marker = marker().toPath();
        Path temporary = Files.createTempFile(marker.getParent(), marker.getFileName() + ".", ".tmp");
        try {
            Files.write(temporary, (run.getFileName() + "\n").getBytes(StandardCharsets.UTF_8));
            Files.move(temporary, marker, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** Ends the run when the test task's tests are done, passed or not. */
    TestListener finisher() {
        return new TestListener() {
            @Override
            public void beforeSuite(TestDescriptor suite) {}

            @Override
            public void afterSuite(TestDescriptor suite, TestResult result) {
                Path started = STARTED.get(base().getAbsoluteFile());
                if (suite.getParent() == null && started != null) {
                    ProfileRuns.finish(started);
                }
            }

            @Override
            public void beforeTest(TestDescriptor test) {}

            @Override
            public void afterTest(TestDescriptor test, TestResult result) {}
        };
    }

    /**
     * The profiles to report on, chosen when they are read (see the class comment): a tree of the
     * directory of runs that holds the {@code *.jpprof} files of one run.
     */
    FileCollection profiles(Project project) {
        ConfigurableFileTree tree = project.fileTree(base());
        tree.include(new OneRun(base().getAbsoluteFile(), marker(), null, ".jpprof"));
        return tree;
    }

    /** The JFR recordings of the run whose profiles {@link #profiles} gives, chosen as those are. */
    FileCollection recordings(Project project) {
        ConfigurableFileTree tree = project.fileTree(base());
        tree.include(new OneRun(base().getAbsoluteFile(), marker(), RECORDINGS, ".jfr"));
        return tree;
    }

    /**
     * Selects the files of the run to report on that end with {@code suffix}, in the run or in its
     * directory {@code subdirectory} ({@code null}: the run itself); holds only files and strings,
     * for the configuration cache.
     */
    private static final class OneRun implements Spec<FileTreeElement> {
        private final File base;
        private final File marker;
        private final String subdirectory;
        private final String suffix;

        OneRun(File base, File marker, String subdirectory, String suffix) {
            this.base = base;
            this.marker = marker;
            this.subdirectory = subdirectory;
            this.suffix = suffix;
        }

        @Override
        public boolean isSatisfiedBy(FileTreeElement element) {
            String[] path = element.getRelativePath().getSegments();
            int depth = subdirectory == null ? 2 : 3;
            if (path.length == 0 || !path[0].equals(run())) return false;
            if (path.length < depth) {
                // Descend into the run, and into its subdirectory only.
                return element.isDirectory() && (path.length == 1 || path[1].equals(subdirectory));
            }
            return path.length == depth && (depth == 2 || path[1].equals(subdirectory)) && path[depth - 1].endsWith(suffix);
        }

        private String run() {
            Path started = STARTED.get(base);
            if (started != null) return started.getFileName().toString();
            try {
                if (marker.isFile()) {
                    String named = new String(Files.readAllBytes(marker.toPath()), StandardCharsets.UTF_8).trim();
                    if (!ProfileRuns.profiles(base.toPath().resolve(named)).isEmpty()) return named;
                }
                Path latest = ProfileRuns.latest(base.toPath());
                return latest == null ? "" : latest.getFileName().toString();
            } catch (IOException e) {
                throw new GradleException("jp: cannot read the runs of profiles in " + base + ": " + e, e);
            }
        }
    }
}
