package org.jpprof.gradle;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gradle.api.Action;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.execution.TaskExecutionGraph;
import org.gradle.api.file.ConfigurableFileCollection;
import org.gradle.api.file.FileCollection;
import org.gradle.api.provider.Provider;
import org.gradle.api.specs.Spec;
import org.gradle.api.specs.Specs;
import org.gradle.api.tasks.testing.Test;
import org.gradle.api.tasks.testing.junit.JUnitOptions;
import org.jpprof.engine.Classpaths;

/**
 * JP on the project's {@code Test} tasks: each gets a {@code jp { enabled }} block
 * ({@link JpTestExtension}); an enabled task runs its tests on the instrumented classes of every
 * project of the build with JP (its own source sets in {@code jp.sourceSets}, and the jars and
 * class directories of other projects it runs, {@link Instrumented}) with JP's runtime, and its
 * test JVMs write profiles into a run of {@code build/jp/profiles/<task>/} ({@link TestRun}).
 *
 * <p>Everything is decided when Gradle asks (the class path when it is resolved, the task
 * dependencies when the task graph is built, the runtime's settings when the task starts), so
 * that {@code enabled} and the {@code jp { }} block may be set anywhere in the build script.
 */
final class TestTasks {
    private final Project project;
    private final JpExtension extension;
    private final Layout layout;
    private final boolean skipped;
    /** The class path each test task had before JP's, by task name. */
    private final Map<String, FileCollection> originals = new LinkedHashMap<>();
    /** The profiling test tasks this build runs, known once the task graph is ready. */
    private final List<String> scheduled = new ArrayList<>();

    TestTasks(Project project, JpExtension extension, Layout layout, boolean skipped) {
        this.project = project;
        this.extension = extension;
        this.layout = layout;
        this.skipped = skipped;
    }

    /**
     * Gives every test task of the project, present and future, its {@code jp} block and wiring,
     * and the class path of a profiled one once the task graph is ready: a build script may set a
     * test task's class path after the plugin configured the task (JVM test suites do, and
     * {@code task it(type: Test) { classpath = ... }} does), and JP's class path must be made from
     * the final one. Its task dependencies are given ahead, from the same class path.
     */
    void wireAll() {
        Compat.configureEach(project.getTasks(), Test.class, new Action<Test>() {
            @Override
            public void execute(Test task) {
                wire(task);
            }
        });
        project.getGradle().getTaskGraph().whenReady(new Action<TaskExecutionGraph>() {
            @Override
            public void execute(TaskExecutionGraph graph) {
                for (Task task : graph.getAllTasks()) {
                    if (task instanceof Test && task.getProject() == project && profiling((Test) task).get()) {
                        Test test = (Test) task;
                        scheduled.add(test.getName());
                        FileCollection classpath = test.getClasspath();
                        originals.put(test.getName(), classpath);
                        test.setClasspath(profiledClasspath(test, classpath));
                    }
                }
            }
        });
    }

    private void wire(final Test task) {
        extensionOf(task);
        final Provider<Boolean> profiling = profiling(task);
        task.dependsOn(new Callable<List<Object>>() {
            @Override
            public List<Object> call() {
                List<Object> builders = new ArrayList<>();
                if (profiling.get()) {
                    builders.addAll(Instrumented.tasksFor(project, originalOf(task), task));
                    builders.add(JpPlugin.RUNTIME_JARS);
                    builders.add(JpPlugin.HOOK_JUNIT4);
                }
                return builders;
            }
        });
        task.finalizedBy(whenProfiling(profiling, Collections.<Object>singletonList(JpPlugin.REPORT)));
        final TestRun run = run(task.getName());
        task.getInputs().property("jp.profiling", new ValueOf<>(profiling));
        Provider<Map<String, String>> runtime = runtimeProperties();
        task.getInputs().property("jp.runtime", new ValueOf<>(runtime));
        task.getOutputs().files(whenProfiling(profiling, Collections.<Object>singletonList(new ValueOf<>(marker(run)))));
        task.getOutputs().upToDateWhen(new NotProfilingOr(profiling, run.hasProfiles()));
        // A profiling task's result is never taken from the build cache, which would bring back its
        // marker file without the run it names.
        task.getOutputs().cacheIf(new NotProfilingOr(profiling, Specs.<Task>satisfyNone()));
        Provider<Boolean> jfr = project.provider(new Callable<Boolean>() {
            @Override
            public Boolean call() {
                return extension.getJfr();
            }
        });
        task.getInputs().property("jp.jfr", new ValueOf<>(jfr));
        task.doFirst(run.starter(profiling, runtime, jfr));
        task.addTestListener(run.finisher());
    }

    /** The class path {@code task} had before JP's: the build's, until the task graph is ready. */
    private FileCollection originalOf(Test task) {
        FileCollection original = originals.get(task.getName());
        return original == null ? task.getClasspath() : original;
    }

    /** The {@code jp} block of {@code task}, made on first use; on for jpProfileTest. */
    static JpTestExtension extensionOf(Test task) {
        JpTestExtension extension = task.getExtensions().findByType(JpTestExtension.class);
        if (extension == null) {
            extension = task.getExtensions().create(JpPlugin.EXTENSION, JpTestExtension.class);
            extension.setEnabled(task.getName().equals(JpPlugin.PROFILE_TEST));
        }
        return extension;
    }

    /** The test tasks that profile, read when asked. */
    List<Test> profilingTasks() {
        List<Test> tasks = new ArrayList<>();
        if (skipped) return tasks;
        // Every test task, realized now if Gradle had not yet: a build that only reports has
        // configured none of them.
        for (Test task : project.getTasks().withType(Test.class)) {
            if (extensionOf(task).getEnabled()) tasks.add(task);
        }
        return tasks;
    }

    /**
     * The test tasks whose profiles jpReport reads: the profiling ones this build runs, else (a
     * build that only reports) every profiling one.
     */
    List<Test> reportedTasks() {
        List<Test> tasks = new ArrayList<>();
        for (Test task : profilingTasks()) {
            if (scheduled.contains(task.getName())) tasks.add(task);
        }
        return tasks.isEmpty() ? profilingTasks() : tasks;
    }

    /** The JFR recordings of the runs of {@code tasks}, as {@link #reportedTasks()} gives them. */
    List<FileCollection> recordingsOf(List<Test> tasks) {
        List<FileCollection> recordings = new ArrayList<>();
        for (Test task : tasks) recordings.add(run(task.getName()).recordings(project));
        return recordings;
    }

    /** The run of profiles of the test task {@code name}. */
    TestRun run(final String name) {
        return new TestRun(project.provider(new Callable<File>() {
            @Override
            public File call() {
                return layout.profilesDir(name);
            }
        }), name);
    }

    /** The jars that hold JUnit 4's RunNotifier in the class paths of the profiling tasks. */
    FileCollection junit4Jars() {
        ConfigurableFileCollection jars = project.files(new Callable<List<File>>() {
            @Override
            public List<File> call() {
                List<File> jars = new ArrayList<>();
                for (Test task : profilingTasks()) {
                    File junit = junit4Jar(originalOf(task), task);
                    if (junit != null && !jars.contains(junit)) jars.add(junit);
                }
                return jars;
            }
        });
        jars.builtBy(new Callable<List<FileCollection>>() {
            @Override
            public List<FileCollection> call() {
                List<FileCollection> classpaths = new ArrayList<>();
                for (Test task : profilingTasks()) {
                    classpaths.add(originalOf(task));
                }
                return classpaths;
            }
        });
        return jars;
    }

    private Provider<Boolean> profiling(final Test task) {
        return project.provider(new Callable<Boolean>() {
            @Override
            public Boolean call() {
                return !skipped && extensionOf(task).getEnabled();
            }
        });
    }

    private Provider<Map<String, String>> runtimeProperties() {
        return project.provider(new Callable<Map<String, String>>() {
            @Override
            public Map<String, String> call() {
                return layout.runtimeProperties(extension);
            }
        });
    }

    private Provider<File> marker(final TestRun run) {
        return project.provider(new Callable<File>() {
            @Override
            public File call() {
                return run.marker();
            }
        });
    }

    /**
     * The class path of a profiling test task: {@code classpath} with the instrumented classes of
     * the build's projects in place of their class directories and jars, the hooked copy of
     * junit's jar for Gradle's JUnit 4 framework, and JP's jars (the runtime's, and the test
     * listeners' that give each test run through JUnit Platform its own context).
     */
    private FileCollection profiledClasspath(final Test task, final FileCollection classpath) {
        ConfigurableFileCollection files = project.files(new Callable<List<File>>() {
            @Override
            public List<File> call() {
                Map<File, List<File>> substitutes = Instrumented.substitutesFor(project, classpath, task);
                File junit = junit4Jar(classpath, task);
                if (junit != null) {
                    substitutes.put(junit.getAbsoluteFile(),
                            Collections.singletonList(JpHookJUnit4.copyOf(layout.jpDir("junit"), junit)));
                }
                return Instrumented.substitute(classpath, substitutes, layout.runtimeJars(true));
            }
        });
        files.builtBy(classpath);
        return files;
    }

    /**
     * The jar of {@code classpath} that holds JUnit 4's RunNotifier, when {@code task} runs its
     * tests on Gradle's JUnit 4 framework (which hands its own RunNotifier no listener of ours, so
     * a hooked copy of the jar gives each notifier jp-junit's listener as it is built; JUnit
     * Platform and TestNG find JP's listeners by themselves); otherwise, or when there is none,
     * {@code null}.
     */
    private File junit4Jar(FileCollection classpath, Test task) {
        if (!(task.getOptions() instanceof JUnitOptions)) return null;
        // Jars that the build does not make only: looking at a directory of classes or at a
        // project's jar would make whether it exists an input of the configuration cache, and a
        // clean build creates them.
        List<String> buildDirs = new ArrayList<>();
        for (Project each : project.getRootProject().getAllprojects()) {
            buildDirs.add(each.getLayout().getBuildDirectory().get().getAsFile().getAbsolutePath() + File.separator);
        }
        List<File> jars = new ArrayList<>();
        for (File file : classpath.getFiles()) {
            if (file.getName().endsWith(".jar") && !isUnder(file, buildDirs)) jars.add(file);
        }
        try {
            return Classpaths.jarHolding(jars, JpHookJUnit4.RUN_NOTIFIER.replace('.', '/') + ".class");
        } catch (IOException e) {
            throw new GradleException("jp: cannot read the class path of " + task.getPath() + ": " + e, e);
        }
    }

    private static boolean isUnder(File file, List<String> dirs) {
        String path = file.getAbsolutePath();
        for (String dir : dirs) {
            if (path.startsWith(dir)) return true;
        }
        return false;
    }

    /** {@code things} when the task profiles, else nothing: for dependencies and outputs. */
    private static Callable<List<Object>> whenProfiling(final Provider<Boolean> profiling, final List<Object> things) {
        return new Callable<List<Object>>() {
            @Override
            public List<Object> call() {
                return profiling.get() ? things : Collections.emptyList();
            }
        };
    }

    /**
     * A provider's value as a {@code Callable}, which task inputs take on every Gradle JP runs on;
     * it holds only the provider, which the configuration cache stores by its value.
     */
    static final class ValueOf<T> implements Callable<T> {
        private final Provider<T> provider;

        ValueOf(Provider<T> provider) {
            this.provider = provider;
        }

        @Override
        public T call() {
            return provider.getOrNull();
        }
    }

    /** True when the task does not profile (Gradle's own rules then decide), else {@code spec}'s answer. */
    private static final class NotProfilingOr implements Spec<Task> {
        private final Provider<Boolean> profiling;
        private final Spec<Task> spec;

        NotProfilingOr(Provider<Boolean> profiling, Spec<Task> spec) {
            this.profiling = profiling;
            this.spec = spec;
        }

        @Override
        public boolean isSatisfiedBy(Task task) {
            return !profiling.get() || spec.isSatisfiedBy(task);
        }
    }
}
