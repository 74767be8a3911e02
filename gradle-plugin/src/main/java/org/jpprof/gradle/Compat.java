package org.jpprof.gradle;

import org.gradle.api.Action;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.plugins.JavaApplication;
import org.gradle.api.tasks.TaskContainer;
import org.gradle.api.tasks.testing.Test;
import org.gradle.process.CommandLineArgumentProvider;
import org.gradle.util.GradleVersion;

/**
 * What differs between the Gradle versions that JP runs on, from 4.4.1 to 9, in one place.
 *
 * <p>The plugin is compiled against the Gradle 8 API. Code that calls an API missing from 4.4.1
 * sits in a nested class of its own, loaded only on a Gradle that has it: a class that merely
 * mentions a missing type can fail verification when it is loaded, whatever branch runs.
 */
final class Compat {
    /** {@code TaskContainer.register} and {@code named}, for lazy task configuration. */
    private static final boolean LAZY_TASKS =
            GradleVersion.current().compareTo(GradleVersion.version("4.9")) >= 0;

    /** {@code application.mainClass}, a lazy property that replaced {@code mainClassName}. */
    private static final boolean MAIN_CLASS_PROPERTY =
            GradleVersion.current().compareTo(GradleVersion.version("6.4")) >= 0;

    /** {@code jvmArgumentProviders} and {@code failFast} on test tasks. */
    private static final boolean TEST_PROVIDERS =
            GradleVersion.current().compareTo(GradleVersion.version("4.6")) >= 0;

    /** {@code filter.excludePatterns} on test tasks. */
    private static final boolean TEST_EXCLUDE_PATTERNS =
            GradleVersion.current().compareTo(GradleVersion.version("5.0")) >= 0;

    /** {@code javaLauncher}, the toolchain's, on test tasks. */
    private static final boolean JAVA_LAUNCHER =
            GradleVersion.current().compareTo(GradleVersion.version("6.7")) >= 0;

    /** {@code setForkEvery(long)}, which replaced the deprecated {@code setForkEvery(Long)}. */
    private static final boolean FORK_EVERY_PRIMITIVE =
            GradleVersion.current().compareTo(GradleVersion.version("8.1")) >= 0;

    private Compat() {}

    /**
     * Copies the test-task settings that Gradle 4.4.1 lacks from {@code from} to {@code to}, where
     * this Gradle has them and {@code to} has none of its own.
     */
    static void copyNewerTestSettings(Test from, Test to) {
        if (TEST_PROVIDERS) {
            NewerTestSettings.copyProviders(from, to);
        }
        if (TEST_EXCLUDE_PATTERNS) {
            NewerTestSettings.copyExcludePatterns(from, to);
        }
        if (JAVA_LAUNCHER) {
            NewerTestSettings.copyJavaLauncher(from, to);
        }
    }

    /** Sets a test task's {@code forkEvery} through the setter this Gradle has. */
    static void setForkEvery(Test task, long forkEvery) {
        if (FORK_EVERY_PRIMITIVE) {
            NewerTestSettings.setForkEvery(task, forkEvery);
        } else {
            setForkEveryBoxed(task, forkEvery);
        }
    }

    /** The only setter before Gradle 8.1, deprecated since. */
    @SuppressWarnings("deprecation")
    private static void setForkEveryBoxed(Test task, long forkEvery) {
        task.setForkEvery(Long.valueOf(forkEvery));
    }

    /**
     * The main class of the {@code application} plugin.
     *
     * @param project the project
     * @return the main class, or {@code null} when the plugin is not applied or names none
     */
    static String mainClass(Project project) {
        if (MAIN_CLASS_PROPERTY) {
            return MainClassProperty.mainClass(project);
        }
        Object name = project.findProperty("mainClassName");
        return name == null ? null : name.toString();
    }

    /**
     * Adds a task: registered lazily where Gradle can (4.9 and later), else created.
     *
     * @param tasks the project's tasks
     * @param name the task's name
     * @param type the task's type
     * @param configure its configuration, run when the task is created
     */
    static <T extends Task> void register(
            TaskContainer tasks, String name, Class<T> type, Action<? super T> configure) {
        if (LAZY_TASKS) {
            LazyTasks.register(tasks, name, type, configure);
        } else {
            tasks.create(name, type, configure);
        }
    }

    /**
     * Runs {@code configure} on each task of {@code type}, present and future: as each is
     * configured where Gradle configures tasks lazily (4.9 and later), else at once.
     *
     * @param tasks the project's tasks
     * @param type the tasks' type
     * @param configure what to run on each
     */
    static <T extends Task> void configureEach(TaskContainer tasks, Class<T> type, Action<? super T> configure) {
        if (LAZY_TASKS) {
            LazyTasks.configureEach(tasks, type, configure);
        } else {
            tasks.withType(type, configure);
        }
    }

    /**
     * Runs {@code action} once the project's build script has been evaluated: at once if it has
     * been, else after. A task configured lazily (Gradle 4.9 and later) is usually configured
     * after evaluation, and Gradle 7 and later refuse {@code afterEvaluate} by then.
     *
     * @param project the project
     * @param action what to run
     */
    static void whenEvaluated(Project project, Action<? super Project> action) {
        if (project.getState().getExecuted()) {
            action.execute(project);
        } else {
            project.afterEvaluate(action);
        }
    }

    /** Test-task settings of Gradle 4.6, 5.0, 6.7 and 8.1 and later, each used only there. */
    private static final class NewerTestSettings {
        private NewerTestSettings() {}

        static void copyProviders(Test from, Test to) {
            for (CommandLineArgumentProvider provider : from.getJvmArgumentProviders()) {
                if (!to.getJvmArgumentProviders().contains(provider)) to.getJvmArgumentProviders().add(provider);
            }
            if (from.getFailFast()) to.setFailFast(true);
        }

        static void copyExcludePatterns(Test from, Test to) {
            if (to.getFilter().getExcludePatterns().isEmpty()) {
                to.getFilter().setExcludePatterns(from.getFilter().getExcludePatterns().toArray(new String[0]));
            }
        }

        static void copyJavaLauncher(Test from, Test to) {
            to.getJavaLauncher().convention(from.getJavaLauncher());
        }

        static void setForkEvery(Test task, long forkEvery) {
            task.setForkEvery(forkEvery);
        }
    }

    /** Gradle 6.4 and later. */
    private static final class MainClassProperty {
        private MainClassProperty() {}

        static String mainClass(Project project) {
            JavaApplication application = project.getExtensions().findByType(JavaApplication.class);
            return application == null ? null : application.getMainClass().getOrNull();
        }
    }

    /** Gradle 4.9 and later. */
    private static final class LazyTasks {
        private LazyTasks() {}

        static <T extends Task> void register(
                TaskContainer tasks, String name, Class<T> type, Action<? super T> configure) {
            tasks.register(name, type, configure);
        }

        static <T extends Task> void configureEach(TaskContainer tasks, Class<T> type, Action<? super T> configure) {
            tasks.withType(type).configureEach(configure);
        }
    }
}
