package org.jpprof.gradle;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.gradle.api.Action;
import org.gradle.api.GradleException;
import org.gradle.api.Task;
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
 */
final class TestRun {
    private final File base;
    private final String prefix;
    private volatile Path dir;

    /**
     * @param base the directory of the task's runs
     * @param prefix the profiles' name before {@code -<pid>.jpprof}
     */
    TestRun(File base, String prefix) {
        this.base = base;
        this.prefix = prefix;
    }

    /** @return the directory of the task's runs */
    File base() {
        return base;
    }

    /** @return the file naming the task's newest run, its declared output */
    File marker() {
        return new File(base.getParentFile(), base.getName() + ".run");
    }

    /** @return whether a run with profiles is there to report on */
    Spec<Task> hasProfiles() {
        return new Spec<Task>() {
            @Override
            public boolean isSatisfiedBy(Task task) {
                try {
                    return ProfileRuns.latest(base.toPath()) != null;
                } catch (IOException e) {
                    return false;
                }
            }
        };
    }

    /**
     * The first action of the test task: starts the run (which removes old ones) and tells the
     * test JVMs where to write (an absolute path, set only now so that the task's inputs stay
     * relocatable for the build cache).
     */
    Action<Task> starter() {
        return new Action<Task>() {
            @Override
            public void execute(Task task) {
                try {
                    dir = ProfileRuns.start(base.toPath());
                    writeMarker(dir);
                } catch (IOException e) {
                    throw new GradleException("jp: cannot start a run of profiles in " + base + ": " + e, e);
                }
                File output = new File(dir.toFile(), prefix + "-%p.jpprof");
                ((Test) task).systemProperty(RuntimeOptions.OUTPUT, output.getAbsolutePath());
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
                Path started = dir;
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

    /** The profiles to report on: this build's run's, else the newest run's with profiles. */
    Callable<List<File>> profiles() {
        return new Callable<List<File>>() {
            @Override
            public List<File> call() throws IOException {
                Path run = dir != null ? dir : ProfileRuns.latest(base.toPath());
                List<File> files = new ArrayList<>();
                for (Path profile : ProfileRuns.profiles(run)) {
                    files.add(profile.toFile());
                }
                return files;
            }
        };
    }
}
