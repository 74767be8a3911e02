package org.jpprof.maven;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.jpprof.engine.InstrumentResult;
import org.jpprof.engine.RuntimeOptions;

/**
 * The settings of the goals that instrument, and what they share: running the engine over one
 * class directory and setting up the test run.
 */
abstract class AbstractInstrumentMojo extends AbstractJpMojo {
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

    /** Instruments {@code input} into {@code output}, with the cache {@code jp/cache/<name>}. */
    protected InstrumentResult instrument(File input, File output, String name)
            throws MojoExecutionException, MojoFailureException {
        EngineCalls.Settings settings = new EngineCalls.Settings(bba, includes, excludes, configFile);
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

    /** The runtime's options: where the profile goes, and the agent's settings. */
    protected List<String> runtimeJvmArgs(File output) {
        return new ArrayList<>(RuntimeOptions.jvmArgs(
                RuntimeOptions.properties(output.getAbsolutePath(), blankToNull(agent), blankToNull(granularity))));
    }

    /**
     * Makes the tests run with JP's runtime: writes the runtime jar, removes the profiles of the
     * last test run (so that a report shows one run) and sets the properties of
     * {@link TestProperties#runtime}.
     */
    protected void setUpTestRun() throws MojoExecutionException {
        File runtimeJar = EngineCalls.runtimeJar(new File(jpDirectory, "runtime"));
        File profiles = profilesDirectory();
        File[] old = profiles.listFiles();
        if (old != null) {
            for (File file : old) {
                if (file.isFile() && file.getName().endsWith(".jpprof") && !file.delete()) {
                    throw new MojoExecutionException("jp: " + file + ": cannot delete the profile of the last run");
                }
            }
        }
        if (!profiles.isDirectory() && !profiles.mkdirs()) {
            throw new MojoExecutionException("jp: " + profiles + ": cannot create the profiles directory");
        }
        List<String> jvmArgs = runtimeJvmArgs(new File(profiles, "test-%p.jpprof"));
        setProperties(TestProperties.runtime(
                project.getProperties(), session.getUserProperties(), runtimeJar, jvmArgs));
    }

    @Override
    protected void skipped() {
        setProperties(TestProperties.original(project.getProperties(), classesDirectory, testClassesDirectory));
    }

    private static String blankToNull(String value) {
        return value == null || value.trim().isEmpty() ? null : value.trim();
    }
}
