package org.jpprof.gradle;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.gradle.api.DefaultTask;
import org.gradle.api.GradleException;
import org.gradle.api.file.FileCollection;
import org.gradle.api.tasks.Classpath;
import org.gradle.api.tasks.Input;
import org.gradle.api.tasks.Internal;
import org.gradle.api.tasks.TaskAction;
import org.gradle.work.DisableCachingByDefault;
import org.jpprof.engine.AtomicFiles;
import org.jpprof.engine.IdeConfig;

/**
 * Prints, and writes to {@code build/jp/ide.txt}, what an IDE run configuration needs to run
 * instrumented code: the class path of the application and that of the tests (the instrumented
 * directories in place of the compiler output, plus the runtime jar) and the JVM options. It
 * instruments first, so the directories it names exist.
 *
 * <p>It declares no outputs, so it runs every time it is asked for.
 */
@DisableCachingByDefault(because = "prints; its small file is not worth caching")
public class JpIdeSetup extends DefaultTask {
    private FileCollection mainClasspath;
    private FileCollection testClasspath;
    private List<String> jvmArgs = new ArrayList<>();
    private String mainClassHint = "<main class>";
    private File outputFile;

    /** A task with empty class paths until the plugin sets them. */
    public JpIdeSetup() {
        mainClasspath = getProject().files();
        testClasspath = getProject().files();
    }

    /** @return the application's class path, instrumented ({@code main}'s runtime class path) */
    @Classpath
    public FileCollection getMainClasspath() {
        return mainClasspath;
    }

    /** @param mainClasspath the application's class path, instrumented */
    public void setMainClasspath(FileCollection mainClasspath) {
        this.mainClasspath = mainClasspath;
    }

    /** @return the tests' class path, the one {@code jpProfileTest} uses */
    @Classpath
    public FileCollection getTestClasspath() {
        return testClasspath;
    }

    /** @param testClasspath the tests' class path */
    public void setTestClasspath(FileCollection testClasspath) {
        this.testClasspath = testClasspath;
    }

    /** @return the JVM options ({@code -Djp.output=...} and the agent's settings) */
    @Input
    public List<String> getJvmArgs() {
        return Collections.unmodifiableList(jvmArgs);
    }

    /** @param jvmArgs the JVM options */
    public void setJvmArgs(List<String> jvmArgs) {
        this.jvmArgs = new ArrayList<>(jvmArgs);
    }

    /** @return the file written, {@code build/jp/ide.txt} */
    @Internal("a copy of what the task prints; the task is never up to date")
    public File getOutputFile() {
        return outputFile;
    }

    /** @param outputFile the file to write */
    public void setOutputFile(File outputFile) {
        this.outputFile = outputFile;
    }

    /** @return what the printed {@code java} command line shows as the main class */
    @Internal("only shown")
    public String getMainClassHint() {
        return mainClassHint;
    }

    /** @param mainClassHint the main class to show ({@code application}'s, when known) */
    public void setMainClassHint(String mainClassHint) {
        this.mainClassHint = mainClassHint;
    }

    /** Writes the file and prints it. */
    @TaskAction
    public void print() {
        String text =
                IdeConfig.render(
                        "gradle jpIdeSetup", "gradle jpInstrument",
                        getMainClasspath().getFiles(), getTestClasspath().getFiles(),
                        getJvmArgs(), getMainClassHint());
        File file = getOutputFile();
        try {
            AtomicFiles.write(file.toPath(), text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new GradleException("jp: " + file + ": cannot write the IDE settings: " + e, e);
        }
        getLogger().quiet("{}(written to {})", text, file);
    }
}
