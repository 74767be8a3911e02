package org.jpprof.gradle;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gradle.api.Action;
import org.gradle.api.GradleException;
import org.gradle.api.Plugin;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.file.ConfigurableFileCollection;
import org.gradle.api.file.FileCollection;
import org.gradle.api.plugins.AppliedPlugin;
import org.gradle.api.specs.Specs;
import org.gradle.api.tasks.SourceSet;
import org.gradle.api.tasks.SourceSetContainer;
import org.gradle.api.tasks.testing.Test;
import org.gradle.api.tasks.testing.junit.JUnitOptions;
import org.gradle.api.tasks.util.PatternSet;
import org.jpprof.engine.Classpaths;
import org.jpprof.engine.RuntimeJar;
import org.jpprof.engine.RuntimeOptions;

/**
 * The Gradle plugin {@code org.jpprof.jp}. Once the {@code java} plugin is applied too, it adds:
 *
 * <ul>
 *   <li>{@code jpInstrument<SourceSet>} for each source set ({@code jpInstrument} for
 *       {@code main}): the compiler output, instrumented into {@code build/jp/classes/<name>};
 *   <li>{@code jpProfileTest}: the project's tests, run as {@code test} runs them but with the
 *       instrumented classes of {@code jp.sourceSets} in place of the compiler's and JP's runtime
 *       on the class path; each test JVM writes a profile into
 *       {@code build/jp/profiles/jpProfileTest/}, with a context per test (for Gradle's JUnit 4
 *       framework through a hooked copy of junit's jar, in {@code build/jp/junit/}). {@code
 *       jpReport} follows it;
 *   <li>{@code jpReport}: those profiles, merged, as {@code build/reports/jp/index.html} and
 *       {@code report.txt};
 *   <li>{@code jpBaseline} and {@code jpCheck}: the regression gate (after {@code jpProfileTest}):
 *       record that run's exact counts in {@code jp-baseline.txt}, or fail the build when they
 *       grew beyond the tolerance against it;
 *   <li>{@code jpIdeSetup}: the class path and JVM options of an IDE run configuration.
 * </ul>
 *
 * <p>It runs on Gradle 4.4.1 (Debian's) and is written to run on Gradle 8 and 9: no Convention
 * API, tasks registered lazily where Gradle can ({@link Compat}), nothing read from the project
 * by a task action (values are captured while the build is configured), and every input and
 * output declared, so that Gradle can skip or cache the tasks. Instrumenting is the engine's work
 * ({@link EngineBridge}); the plugin only wires.
 */
public class JpPlugin implements Plugin<Project> {
    /** The task group of JP's tasks. */
    public static final String GROUP = "jp";
    /** The extension's name: the {@code jp { }} block. */
    public static final String EXTENSION = "jp";
    /** The task that runs the tests on instrumented classes. */
    public static final String PROFILE_TEST = "jpProfileTest";
    /** The task that renders the profiles. */
    public static final String REPORT = "jpReport";
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

    /** The sources whose classes the instrument tasks expect: Java, Kotlin, Groovy, Scala. */
    private static final String[] COMPILED_SOURCES = {"**/*.java", "**/*.kt", "**/*.groovy", "**/*.scala"};

    @Override
    public void apply(final Project project) {
        final JpExtension extension = project.getExtensions().create(EXTENSION, JpExtension.class);
        project.getPluginManager()
                .withPlugin(
                        "java",
                        new Action<AppliedPlugin>() {
                            @Override
                            public void execute(AppliedPlugin java) {
                                new Wiring(project, extension).wire();
                            }
                        });
    }

    /** The tasks of one project, and what they share. */
    private static final class Wiring {
        private final Project project;
        private final JpExtension extension;
        private final SourceSetContainer sourceSets;
        /** The profiles of this build's jpProfileTest, which jpReport reads; see testRun(). */
        private TestRun testRun;
        /** What waits for the end of the project's evaluation; see {@link #whenEvaluated}. */
        private final List<Action<? super Project>> pending = new ArrayList<>();
        private boolean evaluated;

        Wiring(Project project, JpExtension extension) {
            this.project = project;
            this.extension = extension;
            // The `sourceSets` property: a convention property up to Gradle 7, an extension since.
            this.sourceSets = (SourceSetContainer) project.property("sourceSets");
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
            Compat.register(
                    project.getTasks(),
                    PROFILE_TEST,
                    Test.class,
                    new Action<Test>() {
                        @Override
                        public void execute(Test task) {
                            configureProfileTest(task);
                        }
                    });
            Compat.register(
                    project.getTasks(),
                    REPORT,
                    JpReport.class,
                    new Action<JpReport>() {
                        @Override
                        public void execute(JpReport task) {
                            configureReport(task);
                        }
                    });
            Compat.register(
                    project.getTasks(),
                    BASELINE,
                    JpBaseline.class,
                    new Action<JpBaseline>() {
                        @Override
                        public void execute(JpBaseline task) {
                            configureGate(task, "Records the counts of " + PROFILE_TEST + "'s tests and methods in the baseline file.");
                        }
                    });
            Compat.register(
                    project.getTasks(),
                    CHECK,
                    JpCheck.class,
                    new Action<JpCheck>() {
                        @Override
                        public void execute(JpCheck task) {
                            configureGate(task, "Fails when " + PROFILE_TEST + "'s counts grew beyond the tolerance against the baseline file.");
                        }
                    });
            Compat.register(
                    project.getTasks(),
                    HOOK_JUNIT4,
                    JpHookJUnit4.class,
                    new Action<JpHookJUnit4>() {
                        @Override
                        public void execute(JpHookJUnit4 task) {
                            configureHookJUnit4(task, (Test) project.getTasks().getByName(PROFILE_TEST));
                        }
                    });
            Compat.register(
                    project.getTasks(),
                    RUNTIME_JARS,
                    JpRuntimeJars.class,
                    new Action<JpRuntimeJars>() {
                        @Override
                        public void execute(JpRuntimeJars task) {
                            task.setDescription("Writes JP's runtime and test listener jars into build/jp/runtime.");
                            task.setOutputDir(jpDir("runtime"));
                        }
                    });
            Compat.register(
                    project.getTasks(),
                    IDE_SETUP,
                    JpIdeSetup.class,
                    new Action<JpIdeSetup>() {
                        @Override
                        public void execute(JpIdeSetup task) {
                            configureIdeSetup(task);
                        }
                    });
        }

        private void registerInstrument(final SourceSet sourceSet) {
            Compat.register(
                    project.getTasks(),
                    instrumentTaskName(sourceSet),
                    JpInstrument.class,
                    new Action<JpInstrument>() {
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
                            whenEvaluated(
                                    new Action<Project>() {
                                        @Override
                                        public void execute(Project evaluated) {
                                            task.conventions(
                                                    extension.getBba(),
                                                    extension.getInclude(),
                                                    extension.getExclude(),
                                                    configFile());
                                            if (task.getOutputDir() == null) {
                                                task.setOutputDir(instrumentedDir(sourceSet.getName()));
                                            }
                                            if (task.getCacheDir() == null) {
                                                task.setCacheDir(jpDir("cache/" + sourceSet.getName()));
                                            }
                                        }
                                    });
                        }
                    });
        }

        /**
         * Runs {@code action} once the build script has set the project up. Task configuration asks
         * for this, but may run while the script runs (a script that configures a task creates it
         * then), and Gradle 7 and later refuse {@code afterEvaluate} from there: so the plugin hooks
         * into the end of evaluation once, when it is applied, and queues the actions here.
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
                    "Runs the tests on instrumented classes with JP's runtime, which writes a profile.");
            final Test test = (Test) project.getTasks().getByName("test");
            task.setClasspath(withHookedJUnit4(instrumentedClasspath(test.getClasspath(), true), task));
            task.dependsOn(instrumentTasks());
            task.finalizedBy(REPORT);
            final Map<String, Object> inherited = new LinkedHashMap<>(task.getEnvironment());
            whenEvaluated(
                    new Action<Project>() {
                        @Override
                        public void execute(Project evaluated) {
                            TestSettings.copy(test, task, project.getProjectDir(), inherited);
                            Map<String, Object> properties = new LinkedHashMap<>();
                            agentProperties(properties);
                            task.systemProperties(properties);
                            task.getOutputs().file(testRun().marker());
                            task.getOutputs().upToDateWhen(testRun().hasProfiles());
                            task.getOutputs().cacheIf(Specs.<Task>satisfyNone());
                            task.doFirst(testRun().starter());
                            task.addTestListener(testRun().finisher());
                        }
                    });
        }

        private void configureReport(final JpReport task) {
            task.setGroup(GROUP);
            task.setDescription(
                    "Renders the profiles of " + PROFILE_TEST + " as build/reports/jp/index.html and report.txt.");
            task.mustRunAfter(PROFILE_TEST);
            whenEvaluated(
                    new Action<Project>() {
                        @Override
                        public void execute(Project evaluated) {
                            task.conventionProfiles(testRun().profiles(project), testRun().base());
                            if (task.getOutputDir() == null) {
                                task.setOutputDir(new File(buildDir(), "reports/jp"));
                            }
                        }
                    });
        }

        /** jpBaseline and jpCheck: after jpProfileTest, with the extension's settings. */
        private void configureGate(final JpGateTask task, String description) {
            task.setGroup(GROUP);
            task.setDescription(description);
            task.dependsOn(PROFILE_TEST);
            whenEvaluated(
                    new Action<Project>() {
                        @Override
                        public void execute(Project evaluated) {
                            task.conventionProfiles(testRun().profiles(project), testRun().base());
                            if (task.getBaselineFile() == null) {
                                task.setBaselineFile(project.file(extension.getBaseline()));
                            }
                            if (task.getBaselineProfilesDir() == null) {
                                task.setBaselineProfilesDir(jpDir("baseline-profiles"));
                            }
                            if (task.getInclude().isEmpty() && task.getExclude().isEmpty()) {
                                task.setInclude(extension.getInclude());
                                task.setExclude(extension.getExclude());
                            }
                            if (task instanceof JpBaseline && ((JpBaseline) task).getMethodFloor() == null) {
                                ((JpBaseline) task).setMethodFloor(
                                        extension.getMethodFloor() == null ? null : extension.getMethodFloor().longValue());
                            }
                            if (task instanceof JpCheck) {
                                configureCheck((JpCheck) task);
                            }
                        }
                    });
        }

        private void configureCheck(JpCheck task) {
            if (task.getTolerance() == null) {
                task.setTolerance(extension.getTolerance() == null ? null : extension.getTolerance().doubleValue());
            }
            if (task.getTolerances().isEmpty()) {
                task.setTolerances(extension.getTolerances());
            }
            if (task.getIgnore().isEmpty()) {
                task.setIgnore(extension.getIgnore());
            }
            if (task.getReportDir() == null) {
                task.setReportDir(new File(buildDir(), "reports/jp/check"));
            }
            if (task.getDiffReport() == null) {
                task.setDiffReport(new File(buildDir(), "reports/jp/check-diff.html"));
            }
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
            task.dependsOn(instrumentTasks());
            whenEvaluated(
                    new Action<Project>() {
                        @Override
                        public void execute(Project evaluated) {
                            Map<String, Object> properties = new LinkedHashMap<>();
                            properties.put(
                                    RuntimeOptions.OUTPUT,
                                    new File(profilesDir("ide"), "ide-%p.jpprof").getAbsolutePath());
                            agentProperties(properties);
                            List<String> jvmArgs = new ArrayList<>();
                            for (Map.Entry<String, Object> property : properties.entrySet()) {
                                jvmArgs.add("-D" + property.getKey() + "=" + property.getValue());
                            }
                            task.setJvmArgs(jvmArgs);
                            task.setOutputFile(jpDir("ide.txt"));
                            task.setMainClass(Compat.mainClass(project));
                            // IntelliJ IDEA runs these from the root project before each launch.
                            String prefix = project.getPath().equals(":") ? ":" : project.getPath() + ":";
                            List<String> beforeRun = new ArrayList<>();
                            for (SourceSet sourceSet : selectedSourceSets()) {
                                beforeRun.add(prefix + instrumentTaskName(sourceSet));
                            }
                            task.setBeforeRunTasks(beforeRun);
                        }
                    });
        }

        /** {@code jp.agent} and {@code jp.granularity}, when set; a wrong one fails the build. */
        private void agentProperties(Map<String, Object> properties) {
            Object setting = extension.getGranularity();
            String granularity = setting == null ? null : setting.toString();
            try {
                RuntimeOptions.check(extension.getAgent(), granularity);
            } catch (IllegalArgumentException e) {
                throw new GradleException("jp: " + e.getMessage() + ", in the jp { } block of project "
                        + project.getPath(), e);
            }
            properties.putAll(RuntimeOptions.properties(null, extension.getAgent(), granularity));
        }

        /**
         * {@code classpath} with the instrumented directories of {@code jp.sourceSets} in place of
         * their compiler output and the runtime jar, and for {@code tests} the test listeners' jar
         * (which gives each test run through JUnit Platform its own context); built by the
         * instrument tasks and jpRuntimeJars.
         */
        private FileCollection instrumentedClasspath(final FileCollection classpath, final boolean tests) {
            ConfigurableFileCollection files =
                    project.files(
                            new Callable<List<File>>() {
                                @Override
                                public List<File> call() {
                                    Map<File, File> instrumented = new LinkedHashMap<>();
                                    for (SourceSet sourceSet : selectedSourceSets()) {
                                        File dir = instrumentedDir(sourceSet.getName());
                                        for (File classes : sourceSet.getOutput().getClassesDirs()) {
                                            instrumented.put(classes.getAbsoluteFile(), dir);
                                        }
                                    }
                                    List<File> jars = new ArrayList<>();
                                    Path dir = jpDir("runtime").toPath();
                                    jars.add(RuntimeJar.runtimeJarIn(dir).toFile());
                                    if (tests) jars.add(RuntimeJar.listenersJarIn(dir).toFile());
                                    return Classpaths.swap(classpath, instrumented, jars.toArray(new File[0]));
                                }
                            });
            files.builtBy(classpath, instrumentTasks(), RUNTIME_JARS);
            return files;
        }

        /**
         * {@code classpath}, with junit's jar replaced by its hooked copy when {@code task} runs
         * its tests with Gradle's JUnit 4 framework, which hands its own RunNotifier no listener
         * of ours: in the copy, each RunNotifier gets jp-junit's JUnit 4 listener as it is built
         * (docs/gradle.md, "Per-test profiles"). JUnit Platform finds jp-junit's listener by
         * itself, and TestNG has no such notifier: their class paths stay as they are.
         */
        private FileCollection withHookedJUnit4(final FileCollection classpath, final Test task) {
            final Test test = (Test) project.getTasks().getByName("test");
            ConfigurableFileCollection files =
                    project.files(
                            new Callable<List<File>>() {
                                @Override
                                public List<File> call() {
                                    List<File> files = new ArrayList<>(classpath.getFiles());
                                    File junit = junit4Jar(test.getClasspath(), task);
                                    if (junit != null && files.contains(junit)) {
                                        files.set(files.indexOf(junit), JpHookJUnit4.copyOf(jpDir("junit"), junit));
                                    }
                                    return files;
                                }
                            });
            files.builtBy(classpath, HOOK_JUNIT4);
            return files;
        }

        /**
         * The jar of {@code classpath} that holds JUnit 4's RunNotifier, when {@code task} runs its
         * tests on Gradle's JUnit 4 framework; otherwise, or when there is none, {@code null}.
         */
        private File junit4Jar(FileCollection classpath, Test task) {
            if (!(task.getOptions() instanceof JUnitOptions)) return null;
            // Jars only: looking at a directory of classes would make whether it exists an input of
            // the configuration cache, and a clean build creates them.
            List<File> jars = new ArrayList<>();
            for (File file : classpath.getFiles()) {
                if (file.getName().endsWith(".jar")) jars.add(file);
            }
            try {
                return Classpaths.jarHolding(jars, JpHookJUnit4.RUN_NOTIFIER.replace('.', '/') + ".class");
            } catch (IOException e) {
                throw new GradleException("jp: cannot read the class path of " + task.getPath() + ": " + e, e);
            }
        }

        /** jpHookJUnit4, for {@code profileTest}: junit's jar from {@code test}'s class path. */
        private void configureHookJUnit4(JpHookJUnit4 task, final Test profileTest) {
            final Test test = (Test) project.getTasks().getByName("test");
            task.setDescription("Writes the copy of junit's jar that gives each JUnit 4 test its context in the profile.");
            task.setOutputDir(jpDir("junit"));
            task.setJars(project.files(new Callable<List<File>>() {
                @Override
                public List<File> call() {
                    File junit = junit4Jar(test.getClasspath(), profileTest);
                    return junit == null ? Collections.<File>emptyList() : Collections.singletonList(junit);
                }
            }));
            task.dependsOn(test.getClasspath());
        }

        /** The instrument tasks of {@code jp.sourceSets}, by name, looked up when needed. */
        private Callable<List<String>> instrumentTasks() {
            return new Callable<List<String>>() {
                @Override
                public List<String> call() {
                    List<String> names = new ArrayList<>();
                    for (SourceSet sourceSet : selectedSourceSets()) {
                        names.add(instrumentTaskName(sourceSet));
                    }
                    return names;
                }
            };
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

        /** This build's jpProfileTest run, made once the build script has set the build directory. */
        private TestRun testRun() {
            if (testRun == null) {
                testRun = new TestRun(profilesDir(PROFILE_TEST), PROFILE_TEST);
            }
            return testRun;
        }

        private File configFile() {
            Object file = extension.getConfigFile();
            return file == null ? null : project.file(file);
        }

        private File buildDir() {
            return project.getLayout().getBuildDirectory().get().getAsFile();
        }

        private File jpDir(String path) {
            return new File(buildDir(), "jp/" + path);
        }

        private File instrumentedDir(String sourceSet) {
            return jpDir("classes/" + sourceSet);
        }

        private File profilesDir(String name) {
            return jpDir("profiles/" + name);
        }

        /** {@code jpInstrument} for {@code main}, else {@code jpInstrument<SourceSet>}. */
        private static String instrumentTaskName(SourceSet sourceSet) {
            String name = sourceSet.getName();
            if (name.equals(SourceSet.MAIN_SOURCE_SET_NAME)) {
                return "jpInstrument";
            }
            return "jpInstrument" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
        }
    }
}
