package org.jpprof.maven;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.maven.model.Plugin;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.jpprof.engine.InstrumentResult;
import org.jpprof.engine.ProfileRuns;
import org.jpprof.engine.RuntimeOptions;

/**
 * The settings of the goals that instrument, and what they share: running the engine over one
 * class directory and setting up the test run.
 */
abstract class AbstractInstrumentMojo extends AbstractJpMojo {
    /** The project property naming the directory of this build's test profiles, for jp:report. */
    static final String PROFILES_RUN = "jp.profilesRun";
    /** The file in the jpDirectory that names the module using it. */
    private static final String OWNER = "owner";

    /** The compiler's class directory, which is only read. */
    @Parameter(defaultValue = "${project.build.outputDirectory}", required = true)
    protected File classesDirectory;

    /** The compiler's test class directory, which is only read. */
    @Parameter(defaultValue = "${project.build.testOutputDirectory}", required = true)
    protected File testClassesDirectory;

    /** The directory of JP's files: instrumented classes, cache, runtime jar, profiles. */
    @Parameter(property = "jp.directory", defaultValue = "${project.build.directory}/jp", required = true)
    protected File jpDirectory;

    /**
     * The basic-block analysis: {@code default} (blocks end at jumps, switches, returns and throws;
     * may overcount bytecodes when an exception leaves a block early) or {@code precise} (blocks
     * also end after every instruction that can throw; exact). Unset: the config file's, else
     * {@code default}.
     */
    @Parameter(property = "jp.bba")
    protected String bba;

    /**
     * Whether the instrumented classes also count bytecodes per source line (docs/profiling.md,
     * "Per-line counts"): the reports then show the hot methods line by line, and the HTML report
     * beside their source. It slows the tests down several times, so it is off by default. Unset:
     * the config file's {@code lines}, else off.
     */
    @Parameter(property = "jp.lines")
    protected Boolean lines;

    /**
     * The extra exact metrics the instrumented classes count (docs/profiling.md, "Allocations"):
     * {@code allocations} counts every object and array created, per context and type. On the
     * command line, comma-separated: {@code -Djp.metrics=allocations}. Unset: the config file's
     * {@code metrics}, else none.
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.metrics")
    protected List<String> metrics;

    /**
     * Patterns of binary class names to instrument ({@code com.acme.*} a package,
     * {@code com.acme.**} with subpackages); the others are copied unchanged. Empty: all. On the
     * command line, comma-separated: {@code -Djp.includes=com.acme.**,org.acme.**}.
     */
    @Parameter(property = "jp.includes")
    protected List<String> includes;

    /** Patterns of classes to copy unchanged; they win over {@code includes}. */
    @Parameter(property = "jp.excludes")
    protected List<String> excludes;

    /**
     * A {@code jp.toml} whose {@code [instrument]} table gives {@code bba}, {@code include} and
     * {@code exclude}; the settings here add to its lists and override its {@code bba}.
     */
    @Parameter(property = "jp.configFile")
    protected File configFile;

    /**
     * The runtime's agent in the test JVMs ({@code jp.agent}): {@code default}, {@code none}, or
     * a class implementing {@code org.jpprof.runtime.Profiler}. Unset: the runtime's default.
     */
    @Parameter(property = "jp.agent")
    protected String agent;

    /**
     * The runtime's {@code jp.granularity} in the test JVMs: bytecodes between two calls of the
     * agent's {@code report} ({@code 10_000_000} is allowed). Unset: the runtime's default.
     */
    @Parameter(property = "jp.granularity")
    protected String granularity;

    /**
     * Whether the build, not the POM, points Surefire's {@code classesDirectory} at the instrumented
     * classes: set by the lifecycle that {@code jp:profile} forks, so that the POM is not asked for
     * {@code <classesDirectory>${jp.classesDirectory}</classesDirectory>}.
     *
     * @since 0.1.0
     */
    @Parameter(defaultValue = "false")
    protected boolean classesDirectoryByFork;

    /**
     * Whether the test JVMs also run the JDK Flight Recorder ({@code
     * -XX:StartFlightRecording=...,settings=profile}), each writing a recording into the run of
     * profiles' {@code jfr} directory; jp:report then attaches the recordings' samples to the
     * profiles' contexts, sampled CPU time beside the exact counts (docs/cli.md, "Sampled time").
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.jfr", defaultValue = "false")
    protected boolean jfr;

    /** Instruments {@code input} into {@code output}, with the cache {@code jp/cache/<name>}. */
    protected InstrumentResult instrument(File input, File output, String name)
            throws MojoExecutionException, MojoFailureException {
        claimJpDirectory();
        EngineCalls.Settings settings = new EngineCalls.Settings(bba, lines, metrics, includes, excludes, configFile);
        InstrumentResult result = EngineCalls.instrument(input, output, new File(jpDirectory, "cache/" + name), settings);
        for (InstrumentResult.Diagnostic skipped : result.skipped()) {
            getLog().debug("jp: skipped " + skipped);
        }
        for (InstrumentResult.Diagnostic warning : result.warnings()) {
            getLog().warn("jp: warning: " + warning);
        }
        getLog().info("jp: " + relative(input) + " -> " + relative(output) + ": " + result);
        return result;
    }

    /**
     * Makes sure that no other module uses this module's {@code jpDirectory}: each module's
     * instrumenting would take the classes another one wrote there for inputs that are gone, and
     * delete them. The first module to instrument there writes its name into the file
     * {@code owner}, atomically (a hard link to a complete file); any other module is refused.
     */
    private void claimJpDirectory() throws MojoExecutionException {
        Path marker = new File(jpDirectory, OWNER).toPath();
        String me = project.getBasedir().getAbsolutePath() + "\n" + project.getGroupId() + ":"
                + project.getArtifactId() + "\n";
        String owner;
        try {
            Files.createDirectories(marker.getParent());
            if (!Files.exists(marker)) {
                Path draft = Files.createTempFile(marker.getParent(), OWNER, ".tmp");
                try {
                    Files.write(draft, me.getBytes(StandardCharsets.UTF_8));
                    Files.createLink(marker, draft);
                } catch (FileAlreadyExistsException e) {
                    // another module came first
                } finally {
                    Files.deleteIfExists(draft);
                }
            }
            owner = new String(Files.readAllBytes(marker), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MojoExecutionException("jp: " + marker + ": cannot record which module uses " + jpDirectory
                    + ": " + e, e);
        }
        if (!owner.equals(me)) {
            String[] lines = owner.split("\n");
            String other = lines.length == 2 ? lines[1] + " (" + lines[0] + ")" : "another module";
            throw new MojoExecutionException("jp: " + jpDirectory + " is the jpDirectory of " + other
                    + " already: modules must not share one, since each would delete the instrumented classes"
                    + " of the others. Give each module its own, such as the default ${project.build.directory}/jp or"
                    + " <jpDirectory>.../target/jp/${project.artifactId}</jpDirectory>; if " + other
                    + " no longer uses it, delete " + marker);
        }
    }

    /**
     * Whether {@code classes} holds class files to instrument. When it does not, but a source root
     * holds Java or Kotlin sources, the compiler's output is not where the goal reads (the goal
     * ran before compiling, or the build sends the classes elsewhere): the goal fails rather than
     * instrumenting nothing and running the tests on nothing.
     *
     * @param classes the compiler's output directory
     * @param sourceRoots the compile source roots that should have produced it
     * @param compilePhase the phase that compiles them, for the message
     * @return {@code true} if there are classes, {@code false} if there are neither classes nor sources
     * @throws MojoFailureException if there are sources but no classes, naming both
     */
    protected boolean hasClasses(File classes, List<String> sourceRoots, String compilePhase)
            throws MojoFailureException {
        if (first(classes.toPath(), ".class").isPresent()) {
            return true;
        }
        for (String root : sourceRoots) {
            Optional<Path> source = first(Paths.get(root), ".java", ".kt");
            if (source.isPresent()) {
                throw new MojoFailureException("jp: " + classes + " "
                        + (classes.isDirectory() ? "holds no class files" : "does not exist")
                        + ", but the project has sources (" + source.get() + "): compile first (`mvn "
                        + compilePhase + " jp:" + goalName() + "`, or a phase such as `mvn verify`), or check"
                        + " that the compiler writes its classes there");
            }
        }
        return false;
    }

    /** The goal's name, for messages. */
    protected abstract String goalName();

    /** The first regular file under {@code dir} whose name ends with one of {@code suffixes}. */
    private static Optional<Path> first(Path dir, String... suffixes) throws MojoFailureException {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(file -> {
                String name = file.getFileName().toString();
                for (String suffix : suffixes) {
                    if (name.endsWith(suffix) && Files.isRegularFile(file)) {
                        return true;
                    }
                }
                return false;
            }).findFirst();
        } catch (IOException | UncheckedIOException e) {
            throw new MojoFailureException("jp: " + dir + ": cannot list the directory: " + e, e);
        }
    }

    /** Where the test JVMs write their profiles: {@code jp/profiles}. */
    protected File profilesDirectory() {
        return new File(jpDirectory, "profiles");
    }

    /** The runtime's options: where the profile goes, and the agent's settings, checked. */
    protected List<String> runtimeJvmArgs(File output) throws MojoExecutionException {
        try {
            RuntimeOptions.check(blankToNull(agent), blankToNull(granularity));
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("jp: " + e.getMessage() + ", in the configuration of jp-maven-plugin"
                    + " or on the command line", e);
        }
        return new ArrayList<>(RuntimeOptions.jvmArgs(
                RuntimeOptions.properties(output.getAbsolutePath(), blankToNull(agent), blankToNull(granularity))));
    }

    /**
     * Makes the tests run with JP's runtime: writes the runtime jar and the test listeners', starts a run of profiles (a
     * directory of its own under {@code jp/profiles}, so that a report shows this run and two
     * builds at once keep theirs apart; {@link ProfileRuns}), named for jp:report by
     * {@link #PROFILES_RUN}, and sets the properties of {@link TestProperties#runtime}.
     */
    protected void setUpTestRun() throws MojoExecutionException {
        File runtimeJar = EngineCalls.runtimeJar(new File(jpDirectory, "runtime"));
        File listenersJar = EngineCalls.listenersJar(new File(jpDirectory, "runtime"));
        File run = startRun();
        List<String> jvmArgs = runtimeJvmArgs(new File(run, "test-%p.jpprof"));
        if (jfr) {
            jvmArgs.add(Reports.jfrJvmArg(run));
        }
        setProperties(TestProperties.runtime(
                project.getProperties(), session.getUserProperties(), runtimeJar, listenersJar, jvmArgs));
        Plugin surefire = project.getPlugin("org.apache.maven.plugins:" + SurefireSettings.ARTIFACT);
        for (String warning : SurefireSettings.warnings(surefire, session.getUserProperties(), classesDirectoryByFork)) {
            getLog().warn("jp: " + warning + " (docs/maven.md, \"Running the tests on instrumented classes\")");
        }
    }

    private File startRun() throws MojoExecutionException {
        File profiles = profilesDirectory();
        Path run;
        try {
            run = ProfileRuns.start(profiles.toPath());
        } catch (IOException e) {
            throw new MojoExecutionException("jp: cannot start a run of profiles in " + profiles + ": " + e, e);
        }
        setProperties(Collections.singletonMap(PROFILES_RUN, run.toString()));
        return run.toFile();
    }

    @Override
    protected void skipped() throws MojoExecutionException {
        setProperties(TestProperties.original(project.getProperties(), classesDirectory, testClassesDirectory));
        File listenersJar = EngineCalls.listenersJar(new File(jpDirectory, "runtime"));
        setProperties(TestProperties.listeners(project.getProperties(), session.getUserProperties(), listenersJar));
    }

    private static String blankToNull(String value) {
        return value == null || value.trim().isEmpty() ? null : value.trim();
    }
}
