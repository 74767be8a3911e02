package org.jpprof.engine;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * The run configurations that the build plugins' IDE tasks ({@code gradle jpIdeSetup},
 * {@code mvn jp:ide}) write into {@code .run/} of the IDE's project directory, for IntelliJ IDEA
 * ({@code <name>.run.xml}, see {@link IntellijRunConfig}) and Eclipse ({@code <name>.launch}, see
 * {@link EclipseLaunchConfig}): one per main class of the application and one for all the tests,
 * each running the instrumented classes with JP's runtime and JVM options.
 *
 * <p>Each file JP writes carries a comment, its mark. Both IDEs drop comments when they save a
 * configuration, so a file changed in the IDE loses the mark, and JP leaves a file without it
 * alone instead of undoing someone's change. A file that would not change is not written again,
 * so an IDE that runs the build before each launch does not see its configuration reloaded.
 */
public final class IdeRunFiles {
    /** Where the files go, below the IDE's project directory. */
    public static final String DIRECTORY = ".run";
    /** What the mark starts with; the rest names the command that wrote the file. */
    static final String MARK = "Written by JP";

    final String producer;
    final File ideProjectDir;
    final File projectDir;
    final String projectName;
    final List<IdeRun> runs = new ArrayList<>();
    List<String> jvmArgs = Collections.emptyList();
    List<String> gradleTasks = Collections.emptyList();
    File mavenPom;
    String mavenGoals;

    /**
     * Run configurations for one project of a build.
     *
     * @param producer the command that writes them ({@code gradle jpIdeSetup}), named in the mark
     * @param ideProjectDir the directory an IDE opens: the build's root ({@code $PROJECT_DIR$})
     * @param projectDir the project's directory, where the configurations run
     * @param projectName the project's name, in the configurations' names, and the Eclipse
     *     project whose tests run
     */
    public IdeRunFiles(String producer, File ideProjectDir, File projectDir, String projectName) {
        this.producer = producer;
        this.ideProjectDir = ideProjectDir;
        this.projectDir = projectDir;
        this.projectName = projectName;
    }

    /**
     * Adds a configuration that runs a main class of the application.
     *
     * @param mainClass its binary name
     * @param original the build's class path of the application
     * @param classpath the same, instrumented: what the configuration runs with
     * @return this
     */
    public IdeRunFiles application(String mainClass, Collection<File> original, Collection<File> classpath) {
        runs.add(IdeRun.application(projectName, mainClass, original, classpath));
        return this;
    }

    /**
     * Adds a configuration that runs all the tests.
     *
     * @param original the build's class path of the tests
     * @param classpath the same, instrumented (with the test listeners' jar)
     * @return this
     */
    public IdeRunFiles tests(Collection<File> original, Collection<File> classpath) {
        runs.add(IdeRun.tests(projectName, original, classpath));
        return this;
    }

    /**
     * Sets the JVM options of every configuration.
     *
     * @param jvmArgs the options, with absolute paths
     * @return this
     */
    public IdeRunFiles jvmArgs(List<String> jvmArgs) {
        this.jvmArgs = new ArrayList<>(jvmArgs);
        return this;
    }

    /**
     * Makes IntelliJ IDEA run Gradle tasks before each launch, so that the classes are instrumented
     * again after a change.
     *
     * @param taskPaths the tasks, by path from the root project ({@code :app:jpInstrument})
     * @return this
     */
    public IdeRunFiles gradleBeforeRun(List<String> taskPaths) {
        this.gradleTasks = new ArrayList<>(taskPaths);
        return this;
    }

    /**
     * Makes IntelliJ IDEA run Maven goals before each launch.
     *
     * @param pom the project's POM
     * @param goals the goals ({@code compile jp:instrument})
     * @return this
     */
    public IdeRunFiles mavenBeforeRun(File pom, String goals) {
        this.mavenPom = pom;
        this.mavenGoals = goals;
        return this;
    }

    /**
     * Writes the files (atomically) that are missing, JP's and out of date.
     *
     * @return one line per file, saying what became of it, for the build's log
     * @throws IOException if a file cannot be read or written; its message names the file
     */
    public List<String> write() throws IOException {
        IntellijRunConfig intellij = new IntellijRunConfig(this);
        EclipseLaunchConfig eclipse = new EclipseLaunchConfig(this);
        Path dir = ideProjectDir.toPath().resolve(DIRECTORY);
        List<String> report = new ArrayList<>();
        for (IdeRun run : runs) {
            report.add(write(dir.resolve(intellij.fileName(run)), intellij.render(run)));
            report.add(write(dir.resolve(eclipse.fileName(run)), eclipse.render(run)));
        }
        return report;
    }

    private String write(Path file, String text) throws IOException {
        try {
            if (Files.exists(file)) {
                String old = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
                if (old.equals(text)) {
                    return file + ": up to date";
                }
                if (!old.contains(MARK)) {
                    return file + ": left alone, it was changed in the IDE (it lacks JP's mark);"
                            + " delete it to have JP's again";
                }
            }
            AtomicFiles.write(file, text.getBytes(StandardCharsets.UTF_8));
            return file + ": written";
        } catch (IOException e) {
            throw new IOException(file + ": " + e, e);
        }
    }

    /** The mark, an XML comment's text, for a file written by {@code producer}. */
    static String mark(String producer) {
        return MARK + " (" + producer + "), which rewrites this file while this comment is here;"
                + " the IDE drops it when the configuration is changed there.";
    }
}
