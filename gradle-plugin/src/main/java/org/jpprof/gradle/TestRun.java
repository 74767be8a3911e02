package org.jpprof.gradle;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.gradle.api.Action;
import org.gradle.api.GradleException;
import org.gradle.api.Task;
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
                } catch (IOException e) {
                    throw new GradleException("jp: cannot start a run of profiles in " + base + ": " + e, e);
                }
                File output = new File(dir.toFile(), prefix + "-%p.jpprof");
                ((Test) task).systemProperty(RuntimeOptions.OUTPUT, output.getAbsolutePath());
            }
        };
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
