package org.jpprof.gradle;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.gradle.api.DefaultTask;
import org.gradle.api.GradleException;
import org.gradle.api.file.FileCollection;
import org.gradle.api.file.FileTree;
import org.gradle.api.provider.Provider;
import org.gradle.api.tasks.CacheableTask;
import org.gradle.api.tasks.Input;
import org.gradle.api.tasks.InputFile;
import org.gradle.api.tasks.InputFiles;
import org.gradle.api.tasks.Internal;
import org.gradle.api.tasks.LocalState;
import org.gradle.api.tasks.Optional;
import org.gradle.api.tasks.OutputDirectory;
import org.gradle.api.tasks.PathSensitive;
import org.gradle.api.tasks.PathSensitivity;
import org.gradle.api.tasks.SkipWhenEmpty;
import org.gradle.api.tasks.TaskAction;
import org.gradle.api.tasks.util.PatternSet;
import org.jpprof.engine.InstrumentResult;

/**
 * Instruments the compiler output of one source set into its own directory
 * ({@code build/jp/classes/<sourceSet>}), with the engine's content-hash cache in
 * {@code build/jp/cache/<sourceSet>}. The compiler output is only read.
 *
 * <p>Gradle skips the task when its inputs and output are as it left them (UP-TO-DATE) or takes
 * the output from the build cache (FROM-CACHE: the inputs are relocatable). When it does run, the
 * engine rewrites only the classes whose bytes changed since the last run and reuses the others.
 * A class that cannot be read fails the task with the engine's message, which names the file; a
 * method that cannot be rewritten is kept as it was, with a warning.
 */
@CacheableTask
public class JpInstrument extends DefaultTask {
    private FileCollection classesDirs;
    private FileCollection sources;
    private final Setting<String> bba = new Setting<>();
    private final Setting<Boolean> lines = new Setting<>();
    private final Setting<List<String>> metrics = new Setting<>();
    private final Setting<List<String>> include = new Setting<>();
    private final Setting<List<String>> exclude = new Setting<>();
    private final Setting<File> configFile = new Setting<>();
    private final Setting<File> outputDir = new Setting<>();
    private final Setting<File> cacheDir = new Setting<>();
    /** Only to show paths relative to it in the log. */
    private final File projectDir;

    /** A task with nothing to instrument until the plugin (or the build script) sets its inputs. */
    public JpInstrument() {
        classesDirs = getProject().files();
        sources = getProject().files();
        projectDir = getProject().getProjectDir();
    }

    /** The classes: every file in {@link #getClassesDirs()}, by path relative to its directory. */
    @InputFiles
    @SkipWhenEmpty
    @PathSensitive(PathSensitivity.RELATIVE)
    public FileTree getClasses() {
        return getClassesDirs().getAsFileTree();
    }

    /** @return the compiler output directories to instrument ({@code sourceSet.output.classesDirs}) */
    @Internal("tracked by getClasses()")
    public FileCollection getClassesDirs() {
        return classesDirs;
    }

    /** @param classesDirs the compiler output directories to instrument */
    public void setClassesDirs(FileCollection classesDirs) {
        this.classesDirs = classesDirs;
    }

    /**
     * The sources the classes are compiled from (the plugin sets the source set's Java, Kotlin,
     * Groovy and Scala files). With sources but no class files the task fails, rather than
     * instrumenting nothing; with neither, Gradle skips it (NO-SOURCE).
     *
     * @return the source files
     */
    @InputFiles
    @SkipWhenEmpty
    @PathSensitive(PathSensitivity.RELATIVE)
    public FileCollection getSources() {
        return sources;
    }

    /** @param sources the sources the classes are compiled from */
    public void setSources(FileCollection sources) {
        this.sources = sources;
    }

    /** @return {@code default}, {@code precise}, or {@code null} (the config file's, else default) */
    @Input
    @Optional
    public String getBba() {
        return bba.get();
    }

    /** @param bba {@code default}, {@code precise}, or {@code null} */
    public void setBba(String bba) {
        this.bba.set(bba);
    }

    /** @return whether to count bytecodes per source line, or {@code null} (the config file's, else off) */
    @Input
    @Optional
    public Boolean getLines() {
        return lines.get();
    }

    /** @param lines whether to count bytecodes per source line, or {@code null} */
    public void setLines(Boolean lines) {
        this.lines.set(lines);
    }

    /** @return the extra metrics to count ({@code allocations}), or {@code null} (the config file's, else none) */
    @Input
    @Optional
    public List<String> getMetrics() {
        return metrics.get();
    }

    /** @param metrics the extra metrics to count, or {@code null} */
    public void setMetrics(List<String> metrics) {
        this.metrics.set(metrics == null ? null : new ArrayList<>(metrics));
    }

    /** @return the patterns of classes to instrument (empty: all) */
    @Input
    public List<String> getInclude() {
        return orEmpty(include.get());
    }

    /** @param include the patterns of classes to instrument */
    public void setInclude(List<String> include) {
        this.include.set(new ArrayList<>(include));
    }

    /** @return the patterns of classes to copy unchanged */
    @Input
    public List<String> getExclude() {
        return orEmpty(exclude.get());
    }

    /** @param exclude the patterns of classes to copy unchanged */
    public void setExclude(List<String> exclude) {
        this.exclude.set(new ArrayList<>(exclude));
    }

    /** @return the {@code jp.toml} to read, or {@code null} */
    @InputFile
    @Optional
    @PathSensitive(PathSensitivity.NONE)
    public File getConfigFile() {
        return configFile.get();
    }

    /** @param configFile the {@code jp.toml} to read, or {@code null} */
    public void setConfigFile(File configFile) {
        this.configFile.set(configFile);
    }

    /**
     * The version of JP, so that another JP (another engine) never reuses this output.
     *
     * @return the plugin's version, which the engine's and the runtime's match
     */
    @Input
    public String getJpVersion() {
        return EngineBridge.pluginVersion();
    }

    /** @return where the instrumented classes go */
    @OutputDirectory
    public File getOutputDir() {
        return outputDir.get();
    }

    /** @param outputDir where the instrumented classes go */
    public void setOutputDir(File outputDir) {
        this.outputDir.set(outputDir);
    }

    /** @return the engine's cache: never shared, and dropped when Gradle restores the output */
    @LocalState
    public File getCacheDir() {
        return cacheDir.get();
    }

    /** @param cacheDir the engine's cache directory */
    public void setCacheDir(File cacheDir) {
        this.cacheDir.set(cacheDir);
    }

    /**
     * The settings the plugin gives, read when the task asks for them: the {@code jp { }} block's,
     * and the task's directories under {@code build/jp}.
     */
    void conventions(
            Provider<String> bba,
            Provider<Boolean> lines,
            Provider<List<String>> metrics,
            Provider<List<String>> include,
            Provider<List<String>> exclude,
            Provider<File> configFile,
            Provider<File> outputDir,
            Provider<File> cacheDir) {
        this.bba.convention(bba);
        this.lines.convention(lines);
        this.metrics.convention(metrics);
        this.include.convention(include);
        this.exclude.convention(exclude);
        this.configFile.convention(configFile);
        this.outputDir.convention(outputDir);
        this.cacheDir.convention(cacheDir);
    }

    private static List<String> orEmpty(List<String> patterns) {
        return patterns == null ? Collections.<String>emptyList() : patterns;
    }

    private String relative(File file) {
        String project = projectDir.getAbsolutePath() + File.separator;
        String path = file.getAbsolutePath();
        return path.startsWith(project) ? path.substring(project.length()) : path;
    }

    /**
     * Runs the engine and fails the task if any input could not be instrumented, or if there are
     * sources but nothing compiled.
     */
    @TaskAction
    public void instrument() {
        FileTree classFiles = getClasses().matching(new PatternSet().include("**/*.class"));
        if (classFiles.isEmpty() && !getSources().isEmpty()) {
            List<String> dirs = new ArrayList<>();
            for (File dir : getClassesDirs().getFiles()) {
                dirs.add(relative(dir));
            }
            throw new GradleException("jp: " + getName() + ": no class files in " + String.join(", ", dirs)
                    + ", but there are sources (" + relative(getSources().getFiles().iterator().next())
                    + "): compile them first (the source set's classes task), or check that the compiler"
                    + " writes where the source set's output.classesDirs say");
        }
        List<File> inputs = new ArrayList<>();
        for (File dir : getClassesDirs().getFiles()) {
            if (dir.exists()) {
                inputs.add(dir);
            }
        }
        InstrumentResult result =
                EngineBridge.instrument(
                        inputs, getOutputDir(), getCacheDir(), getBba(), getLines(), getMetrics(),
                        getInclude(), getExclude(), getConfigFile());
        for (InstrumentResult.Diagnostic skipped : result.skipped()) {
            getLogger().info("jp: skipped {}", skipped);
        }
        for (InstrumentResult.Diagnostic warning : result.warnings()) {
            getLogger().warn("jp: warning: {}", warning);
        }
        if (result.hasErrors()) {
            throw new GradleException("jp: " + result.errorMessage());
        }
        getLogger().lifecycle("jp: {} -> {}: {}", getName(), relative(getOutputDir()), result);
    }
}
