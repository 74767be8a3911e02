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
import org.gradle.api.tasks.Optional;
import org.gradle.api.tasks.TaskAction;
import org.gradle.work.DisableCachingByDefault;
import org.jpprof.engine.AtomicFiles;
import org.jpprof.engine.IdeConfig;
import org.jpprof.engine.IdeRunFiles;

/**
 * Prints, and writes to {@code build/jp/ide.txt}, what an IDE run configuration needs to run
 * instrumented code: the class path of the application and that of the tests (the instrumented
 * directories in place of the compiler output, plus the runtime jar) and the JVM options. It
 * instruments first, so the directories it names exist. Unless {@code ideFiles} is false, it also
 * writes run configurations for IntelliJ IDEA and Eclipse into {@code .run/} of the root project
 * ({@link IdeRunFiles}): one for the application's main class, when known, and one for the tests.
 *
 * <p>It declares no outputs, so it runs every time it is asked for.
 */
@DisableCachingByDefault(because = "prints; its small file is not worth caching")
public class JpIdeSetup extends DefaultTask {
    private FileCollection mainClasspath;
    private FileCollection testClasspath;
    private FileCollection originalMainClasspath;
    private FileCollection originalTestClasspath;
    private List<String> jvmArgs = new ArrayList<>();
    private String mainClass;
    private File outputFile;
    private boolean ideFiles = true;
    private File ideProjectDir;
    private File projectDir;
    private String projectName;
    private List<String> beforeRunTasks = new ArrayList<>();

    /** A task with empty class paths until the plugin sets them. */
    public JpIdeSetup() {
        mainClasspath = getProject().files();
        testClasspath = getProject().files();
        originalMainClasspath = getProject().files();
        originalTestClasspath = getProject().files();
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

    /**
     * @return the application's main class ({@code application}'s, when known): in the printed
     *     command line, and the class the IDE run configuration runs; none without one
     */
    @Optional
    @Input
    public String getMainClass() {
        return mainClass;
    }

    /** @param mainClass the application's main class, or {@code null} */
    public void setMainClass(String mainClass) {
        this.mainClass = mainClass;
    }

    /** @return the build's own class path of the application, which IntelliJ IDEA starts from */
    @Internal("the IDE files only name what the instrumented class path adds to it")
    public FileCollection getOriginalMainClasspath() {
        return originalMainClasspath;
    }

    /** @param originalMainClasspath {@code main}'s runtime class path */
    public void setOriginalMainClasspath(FileCollection originalMainClasspath) {
        this.originalMainClasspath = originalMainClasspath;
    }

    /** @return the build's own class path of the tests, {@code test}'s */
    @Internal("the IDE files only name what the instrumented class path adds to it")
    public FileCollection getOriginalTestClasspath() {
        return originalTestClasspath;
    }

    /** @param originalTestClasspath {@code test}'s class path */
    public void setOriginalTestClasspath(FileCollection originalTestClasspath) {
        this.originalTestClasspath = originalTestClasspath;
    }

    /** @return whether to write the IDE run configurations into {@code .run/}; true by default */
    @Input
    public boolean getIdeFiles() {
        return ideFiles;
    }

    /** @param ideFiles false to write {@code build/jp/ide.txt} only */
    public void setIdeFiles(boolean ideFiles) {
        this.ideFiles = ideFiles;
    }

    /** @return the directory an IDE opens, the root project's, which gets {@code .run/} */
    @Internal("where the IDE files go; the task is never up to date")
    public File getIdeProjectDir() {
        return ideProjectDir;
    }

    /** @param ideProjectDir the root project's directory */
    public void setIdeProjectDir(File ideProjectDir) {
        this.ideProjectDir = ideProjectDir;
    }

    /** @return the project's directory, where the run configurations run */
    @Internal("named in the IDE files; the task is never up to date")
    public File getProjectDir() {
        return projectDir;
    }

    /** @param projectDir the project's directory */
    public void setProjectDir(File projectDir) {
        this.projectDir = projectDir;
    }

    /** @return the project's name, in the run configurations' names and Eclipse's project name */
    @Input
    public String getProjectName() {
        return projectName;
    }

    /** @param projectName the project's name */
    public void setProjectName(String projectName) {
        this.projectName = projectName;
    }

    /** @return the tasks IntelliJ IDEA runs before each launch ({@code :jpInstrument}), by path */
    @Input
    public List<String> getBeforeRunTasks() {
        return Collections.unmodifiableList(beforeRunTasks);
    }

    /** @param beforeRunTasks the instrument tasks' paths */
    public void setBeforeRunTasks(List<String> beforeRunTasks) {
        this.beforeRunTasks = new ArrayList<>(beforeRunTasks);
    }

    /** Writes the file and the IDE run configurations, and prints the file. */
    @TaskAction
    public void print() {
        String text =
                IdeConfig.render(
                        "gradle jpIdeSetup", "gradle jpInstrument",
                        getMainClasspath().getFiles(), getTestClasspath().getFiles(),
                        getJvmArgs(), mainClass == null ? "<main class>" : mainClass);
        File file = getOutputFile();
        try {
            AtomicFiles.write(file.toPath(), text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new GradleException("jp: " + file + ": cannot write the IDE settings: " + e, e);
        }
        getLogger().quiet("{}(written to {})", text, file);
        if (ideFiles) {
            writeIdeFiles();
        }
    }

    private void writeIdeFiles() {
        IdeRunFiles files = new IdeRunFiles("gradle jpIdeSetup", ideProjectDir, projectDir, projectName);
        if (mainClass != null) {
            files.application(mainClass, originalMainClasspath.getFiles(), mainClasspath.getFiles());
        }
        files.tests(originalTestClasspath.getFiles(), testClasspath.getFiles())
                .jvmArgs(jvmArgs)
                .gradleBeforeRun(beforeRunTasks);
        try {
            for (String line : files.write()) {
                getLogger().quiet("jp: {}", line);
            }
        } catch (IOException e) {
            throw new GradleException("jp: cannot write the IDE run configurations: " + e.getMessage(), e);
        }
    }
}
