package org.jpprof.gradle;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.gradle.api.Action;
import org.gradle.api.GradleException;
import org.gradle.api.Plugin;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.file.ConfigurableFileCollection;
import org.gradle.api.file.FileCollection;
import org.gradle.api.plugins.AppliedPlugin;
import org.gradle.api.plugins.JavaPlugin;
import org.gradle.api.provider.Provider;
import org.gradle.api.specs.Specs;
import org.gradle.api.tasks.SourceSet;
import org.gradle.api.tasks.SourceSetContainer;
import org.gradle.api.tasks.testing.Test;
import org.gradle.api.tasks.util.PatternSet;
import org.jpprof.engine.RuntimeOptions;

/**
 * The Gradle plugin {@code org.jpprof.jp}. Once the {@code java} plugin is applied too, it adds:
 *
 * <ul>
 *   <li>{@code jpInstrument<SourceSet>} for each source set ({@code jpInstrument} for
 *       {@code main}): the compiler output, instrumented into {@code build/jp/classes/<name>};
 *   <li>a {@code jp { enabled }} block on every {@code Test} task ({@link TestTasks}): an enabled
 *       task runs its tests with the instrumented classes of {@code jp.sourceSets}, and of the
 *       other projects of the build with JP, in place of the compiler's and JP's runtime on the
 *       class path; each test JVM writes a profile into {@code build/jp/profiles/<task>/}, with
 *       a context per test (for Gradle's JUnit 4 framework through a hooked copy of junit's jar,
 *       in {@code build/jp/junit/}). {@code jpReport} follows it;
 *   <li>{@code jpProfileTest}: a test task enabled so, run as {@code test} runs them;
 *   <li>{@code jpReport}: the profiles of the enabled test tasks, merged, as
 *       {@code build/reports/jp/index.html} and {@code report.txt};
 *   <li>{@code jpAggregateReport}, in a project with subprojects: the profiles of it and of all
 *       its subprojects with JP, merged, in {@code build/reports/jp/aggregate};
 *   <li>{@code jpBaseline} and {@code jpCheck}: the regression gate (after {@code jpProfileTest}):
 *       record that run's exact counts in {@code jp-baseline.txt}, or fail the build when they
 *       grew beyond the tolerance against it;
 *   <li>{@code jpIdeSetup}: the class path and JVM options of an IDE run configuration.
 * </ul>
 *
 * <p>It runs on Gradle 4.4.1 (Debian's) and is written for Gradle 8 and 9: no Convention API,
 * tasks registered and configured lazily where Gradle can ({@link Compat}), settings read through
 * providers when a task asks for them ({@link Setting}), nothing read from the project by a task
 * action, nothing resolved or extracted while the build is configured, and every input and
 * output declared, so that Gradle can skip or cache the tasks and store the configuration. With
 * the project property {@code jp.skip} every task of JP's is skipped and no test task profiles.
 * Instrumenting is the engine's work ({@link EngineBridge}); the plugin only wires.
 */
public class JpPlugin implements Plugin<Project> {
    /** The task group of JP's tasks. */
    public static final String GROUP = "jp";
    /** The extension's name: the {@code jp { }} block, of the project and of each test task. */
    public static final String EXTENSION = "jp";
    /** The task that runs the tests on instrumented classes. */
    public static final String PROFILE_TEST = "jpProfileTest";
    /** The task that renders the profiles. */
    public static final String REPORT = "jpReport";
    /** The task that renders the profiles of a project and its subprojects. */
    public static final String AGGREGATE_REPORT = "jpAggregateReport";
    /** The task that records the baseline of the regression gate. */
    public static final String BASELINE = "jpBaseline";
    /** The task that checks a run against the baseline. */
    public static final String CHECK = "jpCheck";
    /** The task that prints the IDE settings. */
    public static final String IDE_SETUP = "jpIdeSetup";
    /** The task that writes the runtime's and the test listeners' jars for the class paths. */
    public static final String RUNTIME_JARS = "jpRuntimeJars";
    /** The task that writes the hooked copy of junit's jar for Gradle's JUnit 4 framework. */
    public static final String HOOK_JUNIT4 = "jpHookJUnit4";
    /** The project property that skips JP's tasks: {@code gradle check -Pjp.skip}. */
    public static final String SKIP = "jp.skip";

    /** The sources whose classes the instrument tasks expect: Java, Kotlin, Groovy, Scala. */
    private static final String[] COMPILED_SOURCES = {"**/*.java", "**/*.kt", "**/*.groovy", "**/*.scala"};

    @Override
    public void apply(final Project project) {
        final JpExtension extension = project.getExtensions().create(EXTENSION, JpExtension.class);
        final Registrar registrar = new Registrar(project);
        project.getPluginManager()
                .withPlugin(
                        "java",
                        new Action<AppliedPlugin>() {
                            @Override
                            public void execute(AppliedPlugin java) {
                                new Wiring(project, extension, registrar).wire();
                            }
                        });
        if (!project.getSubprojects().isEmpty()) {
            registrar.register(AGGREGATE_REPORT, JpReport.class, new Action<JpReport>() {
                @Override
                public void execute(JpReport task) {
                    configureAggregateReport(project, task);
                }
            });
        }
    }

    /** jpAggregateReport: the profiles of {@code project} and its subprojects, after their tests. */
    private static void configureAggregateReport(final Project project, JpReport task) {
        task.setGroup(GROUP);
        task.setDescription("Renders the profiles of the profiled test tasks of this project and its"
                + " subprojects as one report, build/reports/jp/aggregate/index.html and report.txt.");
        task.conventionProfiles(BuildProfiles.of(project), new Layout(project).jpDir("profiles"));
        task.conventionTitle(project.provider(new Callable<String>() {
            @Override
            public String call() {
                return project.getName() + " and its subprojects";
            }
        }));
        task.conventionOutputDir(project.provider(new Callable<File>() {
            @Override
            public File call() {
                return new File(new Layout(project).buildDir(), "reports/jp/aggregate");
            }
        }));
        for (Project each : project.getAllprojects()) {
            task.mustRunAfter(each.getTasks().withType(Test.class));
        }
    }

    /** Registers JP's tasks, each skipped under {@code -Pjp.skip}. */
    static final class Registrar {
        private final Project project;
        private final boolean skipped;

        Registrar(Project project) {
            this.project = project;
            Object value = project.findProperty(SKIP);
            this.skipped = value != null && !"false".equalsIgnoreCase(value.toString().trim());
        }

        boolean skipped() {
            return skipped;
        }

        <T extends Task> void register(String name, Class<T> type, final Action<? super T> configure) {
            Compat.register(project.getTasks(), name, type, new Action<T>() {
                @Override
                public void execute(T task) {
                    configure.execute(task);
                    if (skipped) task.onlyIf(Specs.<Task>satisfyNone());
                }
            });
        }
    }

    /** The tasks of one project with the {@code java} plugin, and what they share. */
    private static final class Wiring {
        private final Project project;
        private final JpExtension extension;
        private final Registrar registrar;
        private final SourceSetContainer sourceSets;
        private final Layout layout;
        private final TestTasks testTasks;
        /** The {@code jp { }} block's class patterns, for the instrument and gate tasks. */
        private final Provider<List<String>> include;
        private final Provider<List<String>> exclude;
        /** What waits for the end of the project's evaluation; see {@link #whenEvaluated}. */
        private final List<Action<? super Project>> pending = new ArrayList<>();
        private boolean evaluated;

        Wiring(Project project, JpExtension extension, Registrar registrar) {
            this.project = project;
            this.extension = extension;
            this.registrar = registrar;
            // The `sourceSets` property: a convention property up to Gradle 7, an extension since.
            this.sourceSets = (SourceSetContainer) project.property("sourceSets");
            this.layout = new Layout(project);
            this.testTasks = new TestTasks(project, extension, layout, registrar.skipped());
            this.include = project.provider(new Callable<List<String>>() {
                @Override
                public List<String> call() {
                    return extension.getInclude();
                }
            });
            this.exclude = project.provider(new Callable<List<String>>() {
                @Override
                public List<String> call() {
                    return extension.getExclude();
                }
            });
        }

        void wire() {
            Compat.whenEvaluated(
                    project,
                    new Action<Project>() {
                        @Override
                        public void execute(Project evaluated) {
                            runPending();
                        }
                    });
            sourceSets.all(
                    new Action<SourceSet>() {
                        @Override
                        public void execute(SourceSet sourceSet) {
                            registerInstrument(sourceSet);
                        }
                    });
            Instrumented.publish(project, substitutes(), instrumentTaskPaths());
            BuildProfiles.publish(project, reportedProfiles());
            testTasks.wireAll();
            registrar.register(PROFILE_TEST, Test.class, new Action<Test>() {
                @Override
                public void execute(Test task) {
                    configureProfileTest(task);
                }
            });
            registrar.register(REPORT, JpReport.class, new Action<JpReport>() {
                @Override
                public void execute(JpReport task) {
                    configureReport(task);
                }
            });
            registrar.register(BASELINE, JpBaseline.class, new Action<JpBaseline>() {
                @Override
                public void execute(JpBaseline task) {
                    configureGate(task, "Records the counts of the profiled tests and methods in the baseline file.");
                    task.conventionMethodFloor(project.provider(new Callable<Long>() {
                        @Override
                        public Long call() {
                            return extension.getMethodFloor() == null ? null : extension.getMethodFloor().longValue();
                        }
                    }));
                    task.conventionMetric(project.provider(new Callable<String>() {
                        @Override
                        public String call() {
                            return extension.getBaselineMetric();
                        }
                    }));
                }
            });
            registrar.register(CHECK, JpCheck.class, new Action<JpCheck>() {
                @Override
                public void execute(JpCheck task) {
                    configureGate(task, "Fails when the profiled tests' counts grew beyond the tolerance against the baseline file.");
                    configureCheck(task);
                }
            });
            registrar.register(HOOK_JUNIT4, JpHookJUnit4.class, new Action<JpHookJUnit4>() {
                @Override
                public void execute(JpHookJUnit4 task) {
                    task.setDescription("Writes the copy of junit's jar that gives each JUnit 4 test its context in the profile.");
                    task.setOutputDir(layout.jpDir("junit"));
                    FileCollection jars = testTasks.junit4Jars();
                    task.setJars(jars);
                    task.dependsOn(jars);
                }
            });
            registrar.register(RUNTIME_JARS, JpRuntimeJars.class, new Action<JpRuntimeJars>() {
                @Override
                public void execute(JpRuntimeJars task) {
                    task.setDescription("Writes JP's runtime and test listener jars into build/jp/runtime.");
                    task.setOutputDir(layout.jpDir("runtime"));
                }
            });
            registrar.register(IDE_SETUP, JpIdeSetup.class, new Action<JpIdeSetup>() {
                @Override
                public void execute(JpIdeSetup task) {
                    configureIdeSetup(task);
                }
            });
        }

        private void registerInstrument(final SourceSet sourceSet) {
            registrar.register(Layout.instrumentTaskName(sourceSet), JpInstrument.class, new Action<JpInstrument>() {
                @Override
                public void execute(final JpInstrument task) {
                    task.setGroup(GROUP);
                    task.setDescription(
                            "Instruments the classes of source set '" + sourceSet.getName()
                                    + "' for JP's profiler.");
                    task.setClassesDirs(sourceSet.getOutput().getClassesDirs());
                    task.setSources(
                            sourceSet.getAllSource().matching(
                                    new PatternSet().include(COMPILED_SOURCES)));
                    task.conventions(
                            project.provider(new Callable<String>() {
                                @Override
                                public String call() {
                                    return extension.getBba();
                                }
                            }),
                            project.provider(new Callable<Boolean>() {
                                @Override
                                public Boolean call() {
                                    return extension.getLines();
                                }
                            }),
                            project.provider(new Callable<List<String>>() {
                                @Override
                                public List<String> call() {
                                    return extension.getMetrics();
                                }
                            }),
                            include,
                            exclude,
                            project.provider(new Callable<File>() {
                                @Override
                                public File call() {
                                    return configFile();
                                }
                            }),
                            project.provider(new Callable<File>() {
                                @Override
                                public File call() {
                                    return layout.instrumentedDir(sourceSet.getName());
                                }
                            }),
                            project.provider(new Callable<File>() {
                                @Override
                                public File call() {
                                    return layout.jpDir("cache/" + sourceSet.getName());
                                }
                            }));
                }
            });
        }

        /**
         * Runs {@code action} once the build script has set the project up: for
         * {@code jpProfileTest}'s copy of {@code test}'s settings, which Gradle has no lazy way to
         * give, and for jpIdeSetup's plain settings. Task configuration may run while the script runs (a script that configures a task
         * creates it then), and Gradle 7 and later refuse {@code afterEvaluate} from there: so the
         * plugin hooks into the end of evaluation once, when it is applied, and queues the actions.
         */
        private void whenEvaluated(Action<? super Project> action) {
            if (evaluated) {
                action.execute(project);
            } else {
                pending.add(action);
            }
        }

        private void runPending() {
            evaluated = true;
            // An action may create a task whose configuration queues more.
            while (!pending.isEmpty()) {
                pending.remove(0).execute(project);
            }
        }

        private void configureProfileTest(final Test task) {
            task.setGroup(GROUP);
            task.setDescription(
                    "Runs the tests as test runs them, on instrumented classes with JP's runtime, which writes a profile.");
            final Test test = (Test) project.getTasks().getByName("test");
            final Map<String, Object> inherited = new LinkedHashMap<>(task.getEnvironment());
            whenEvaluated(
                    new Action<Project>() {
                        @Override
                        public void execute(Project evaluated) {
                            TestSettings.copy(test, task, project.getProjectDir(), inherited);
                        }
                    });
        }

        private void configureReport(final JpReport task) {
            task.setGroup(GROUP);
            task.setDescription(
                    "Renders the profiles of the profiled test tasks as build/reports/jp/index.html and report.txt.");
            task.mustRunAfter(new Callable<List<Test>>() {
                @Override
                public List<Test> call() {
                    return testTasks.profilingTasks();
                }
            });
            task.conventionProfiles(reportedProfiles(), layout.jpDir("profiles"));
            task.setRecordings(project.files(new Callable<List<FileCollection>>() {
                @Override
                public List<FileCollection> call() {
                    return extension.getJfr()
                            ? testTasks.recordingsOf(testTasks.reportedTasks())
                            : Collections.<FileCollection>emptyList();
                }
            }));
            task.setSourceDirs(project.files(new Callable<List<File>>() {
                @Override
                public List<File> call() {
                    return sourceDirs();
                }
            }));
            task.conventionOutputDir(project.provider(new Callable<File>() {
                @Override
                public File call() {
                    return new File(layout.buildDir(), "reports/jp");
                }
            }));
            task.conventionTitle(project.provider(new Callable<String>() {
                @Override
                public String call() {
                    List<String> names = new ArrayList<>();
                    for (Test test : testTasks.profilingTasks()) names.add(test.getName());
                    return names.isEmpty() ? project.getName() : project.getName() + ": " + String.join(", ", names);
                }
            }));
        }

        /**
         * jpReport's profiles: the newest run of each profiling test task that this build runs, or
         * when it runs none, of each profiling test task.
         */
        private FileCollection reportedProfiles() {
            return project.files(new Callable<List<FileCollection>>() {
                @Override
                public List<FileCollection> call() {
                    return profilesOf(testTasks.reportedTasks());
                }
            });
        }

        /**
         * The test tasks the gate reads: the profiling ones, leaving out jpProfileTest when another
         * profiles (a build that enabled JP on {@code test} means that one), else jpProfileTest.
         */
        private List<Test> gatedTasks() {
            List<Test> tasks = new ArrayList<>();
            for (Test task : testTasks.profilingTasks()) {
                if (!task.getName().equals(PROFILE_TEST)) tasks.add(task);
            }
            if (tasks.isEmpty()) tasks.add((Test) project.getTasks().getByName(PROFILE_TEST));
            return tasks;
        }

        private List<FileCollection> profilesOf(List<Test> tasks) {
            List<FileCollection> profiles = new ArrayList<>();
            for (Test task : tasks) {
                profiles.add(testTasks.run(task.getName()).profiles(project));
            }
            return profiles;
        }

        /** jpBaseline and jpCheck: after the gated test tasks, with the extension's settings. */
        private void configureGate(final JpGateTask task, String description) {
            task.setGroup(GROUP);
            task.setDescription(description);
            task.dependsOn(new Callable<List<Test>>() {
                @Override
                public List<Test> call() {
                    return gatedTasks();
                }
            });
            task.conventionProfiles(
                    project.files(new Callable<List<FileCollection>>() {
                        @Override
                        public List<FileCollection> call() {
                            return profilesOf(gatedTasks());
                        }
                    }),
                    layout.jpDir("profiles"));
            task.conventions(
                    project.provider(new Callable<File>() {
                        @Override
                        public File call() {
                            return project.file(extension.getBaseline());
                        }
                    }),
                    include,
                    exclude,
                    project.provider(new Callable<File>() {
                        @Override
                        public File call() {
                            return layout.jpDir("baseline-profiles");
                        }
                    }));
        }

        private void configureCheck(JpCheck task) {
            task.conventions(
                    project.provider(new Callable<Double>() {
                        @Override
                        public Double call() {
                            return extension.getTolerance() == null ? null : extension.getTolerance().doubleValue();
                        }
                    }),
                    project.provider(new Callable<Map<String, Number>>() {
                        @Override
                        public Map<String, Number> call() {
                            return extension.getTolerances();
                        }
                    }),
                    project.provider(new Callable<List<String>>() {
                        @Override
                        public List<String> call() {
                            return extension.getIgnore();
                        }
                    }),
                    project.provider(new Callable<File>() {
                        @Override
                        public File call() {
                            return new File(layout.buildDir(), "reports/jp/check");
                        }
                    }),
                    project.provider(new Callable<File>() {
                        @Override
                        public File call() {
                            return new File(layout.buildDir(), "reports/jp/check-diff.html");
                        }
                    }));
        }

        private void configureIdeSetup(final JpIdeSetup task) {
            task.setGroup(GROUP);
            task.setDescription(
                    "Prints the class path and JVM options of an IDE run configuration that runs"
                            + " instrumented classes (also written to build/jp/ide.txt), and writes"
                            + " IntelliJ IDEA and Eclipse run configurations into .run/.");
            SourceSet main = sourceSets.getByName(SourceSet.MAIN_SOURCE_SET_NAME);
            Test test = (Test) project.getTasks().getByName("test");
            task.setMainClasspath(instrumentedClasspath(main.getRuntimeClasspath(), false));
            task.setTestClasspath(instrumentedClasspath(test.getClasspath(), true));
            task.setOriginalMainClasspath(main.getRuntimeClasspath());
            task.setOriginalTestClasspath(test.getClasspath());
            task.setIdeProjectDir(project.getRootDir());
            task.setProjectDir(project.getProjectDir());
            task.setProjectName(project.getName());
            task.dependsOn(instrumentTaskPaths());
            whenEvaluated(
                    new Action<Project>() {
                        @Override
                        public void execute(Project evaluated) {
                            Map<String, Object> properties = new LinkedHashMap<>();
                            properties.put(
                                    RuntimeOptions.OUTPUT,
                                    new File(layout.profilesDir("ide"), "ide-%p.jpprof").getAbsolutePath());
                            properties.putAll(layout.runtimeProperties(extension));
                            List<String> jvmArgs = new ArrayList<>();
                            for (Map.Entry<String, Object> property : properties.entrySet()) {
                                jvmArgs.add("-D" + property.getKey() + "=" + property.getValue());
                            }
                            task.setJvmArgs(jvmArgs);
                            task.setOutputFile(layout.jpDir("ide.txt"));
                            task.setMainClass(Compat.mainClass(project));
                            // IntelliJ IDEA runs these from the root project before each launch.
                            String prefix = project.getPath().equals(":") ? ":" : project.getPath() + ":";
                            List<String> beforeRun = new ArrayList<>();
                            for (SourceSet sourceSet : selectedSourceSets()) {
                                beforeRun.add(prefix + Layout.instrumentTaskName(sourceSet));
                            }
                            task.setBeforeRunTasks(beforeRun);
                        }
                    });
        }

        /**
         * {@code classpath} with the instrumented classes of the build's projects in place of their
         * class directories and jars, and the runtime jar (and for {@code tests} the test
         * listeners' jar); built by the instrument tasks and jpRuntimeJars.
         */
        private FileCollection instrumentedClasspath(final FileCollection classpath, final boolean tests) {
            ConfigurableFileCollection files =
                    project.files(
                            new Callable<List<File>>() {
                                @Override
                                public List<File> call() {
                                    return Instrumented.substitute(
                                            classpath,
                                            Instrumented.substitutesFor(project, classpath, null),
                                            layout.runtimeJars(tests));
                                }
                            });
            files.builtBy(classpath, RUNTIME_JARS, new Callable<List<String>>() {
                @Override
                public List<String> call() {
                    return Instrumented.tasksFor(project, classpath, null);
                }
            });
            return files;
        }

        /**
         * For each class directory of {@code jp.sourceSets}, its instrumented directory; and for the
         * project's jar, when {@code main} is among them, the instrumented classes of {@code main}
         * and the resources the jar holds.
         */
        private Callable<Map<File, List<File>>> substitutes() {
            return new Callable<Map<File, List<File>>>() {
                @Override
                public Map<File, List<File>> call() {
                    Map<File, List<File>> substitutes = new LinkedHashMap<>();
                    for (SourceSet sourceSet : selectedSourceSets()) {
                        File dir = layout.instrumentedDir(sourceSet.getName());
                        for (File classes : sourceSet.getOutput().getClassesDirs()) {
                            substitutes.put(classes.getAbsoluteFile(), Collections.singletonList(dir));
                        }
                        Task jar = project.getTasks().findByName(JavaPlugin.JAR_TASK_NAME);
                        if (sourceSet.getName().equals(SourceSet.MAIN_SOURCE_SET_NAME) && jar != null) {
                            List<File> replacement = new ArrayList<>();
                            replacement.add(dir);
                            File resources = sourceSet.getOutput().getResourcesDir();
                            if (resources != null) replacement.add(resources);
                            for (File archive : jar.getOutputs().getFiles()) {
                                substitutes.put(archive.getAbsoluteFile(), replacement);
                            }
                        }
                    }
                    return substitutes;
                }
            };
        }

        /** The paths of the instrument tasks of {@code jp.sourceSets}, looked up when needed. */
        private Callable<List<String>> instrumentTaskPaths() {
            return new Callable<List<String>>() {
                @Override
                public List<String> call() {
                    List<String> paths = new ArrayList<>();
                    for (SourceSet sourceSet : selectedSourceSets()) {
                        paths.add(project.getTasks().getByName(Layout.instrumentTaskName(sourceSet)).getPath());
                    }
                    return paths;
                }
            };
        }

        /** The existing source directories of {@code jp.sourceSets}, resources left out. */
        private List<File> sourceDirs() {
            List<File> dirs = new ArrayList<>();
            for (SourceSet sourceSet : selectedSourceSets()) {
                Set<File> resources = sourceSet.getResources().getSrcDirs();
                for (File dir : sourceSet.getAllSource().getSrcDirs()) {
                    if (dir.isDirectory() && !resources.contains(dir)) dirs.add(dir);
                }
            }
            return dirs;
        }

        private List<SourceSet> selectedSourceSets() {
            List<SourceSet> selected = new ArrayList<>();
            for (String name : extension.getSourceSets()) {
                SourceSet sourceSet = sourceSets.findByName(name);
                if (sourceSet == null) {
                    List<String> names = new ArrayList<>(sourceSets.getNames());
                    Collections.sort(names);
                    throw new GradleException(
                            "jp: jp.sourceSets names '" + name + "', but project " + project.getPath()
                                    + " has no such source set (it has " + String.join(", ", names) + ")");
                }
                selected.add(sourceSet);
            }
            return selected;
        }

        private File configFile() {
            Object file = extension.getConfigFile();
            return file == null ? null : project.file(file);
        }
    }
}
