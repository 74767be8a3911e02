package org.jpprof.gradle;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.gradle.api.DefaultTask;
import org.gradle.api.GradleException;
import org.gradle.api.Task;
import org.gradle.api.file.FileCollection;
import org.gradle.api.provider.Provider;
import org.gradle.api.specs.Spec;
import org.gradle.api.tasks.CacheableTask;
import org.gradle.api.tasks.Input;
import org.gradle.api.tasks.InputFiles;
import org.gradle.api.tasks.Internal;
import org.gradle.api.tasks.Optional;
import org.gradle.api.tasks.OutputDirectory;
import org.gradle.api.tasks.PathSensitive;
import org.gradle.api.tasks.PathSensitivity;
import org.gradle.api.tasks.TaskAction;
import org.jpprof.engine.ReportRequest;

/**
 * Renders profiles (by default those of this build's {@code jpProfileTest}, else of its newest run
 * with profiles) as one report: the profiles are merged by calling context, so the forked test
 * JVMs' profiles make one tree.
 * Writes {@code index.html} (an interactive call tree, flame graph and hot methods, in one file)
 * and {@code report.txt} (a text tree in bytecodes) into {@code build/reports/jp}.
 *
 * <p>With no profile the task does not fail: it says that there is nothing to report on and where
 * it looked, and removes the reports of an earlier run, which would not describe this one. (It
 * runs after {@code jpProfileTest} also when that wrote no profile, for example because the
 * project has no tests, and such a build should not fail for it.) A profile that cannot be read,
 * or a report that cannot be written, fails the task naming the file.
 */
@CacheableTask
public class JpReport extends DefaultTask {
    private final ProfilesSetting profiles;
    private final Setting<File> outputDir = new Setting<>();
    private final Setting<String> title = new Setting<>();
    private FileCollection sourceDirs;
    private FileCollection recordings;

    /** A task with no profiles until the plugin (or the build script) sets them. */
    public JpReport() {
        profiles = new ProfilesSetting(getProject());
        sourceDirs = getProject().files();
        recordings = getProject().files();
        // With no profile the task says so each time, and has nothing worth caching.
        Spec<Task> hasProfiles = new Spec<Task>() {
            @Override
            public boolean isSatisfiedBy(Task task) {
                return !getProfiles().isEmpty();
            }
        };
        getOutputs().upToDateWhen(hasProfiles);
        getOutputs().cacheIf(hasProfiles);
    }

    /** @return the profiles to merge ({@code *.jpprof}) */
    @InputFiles
    @PathSensitive(PathSensitivity.NONE)
    public FileCollection getProfiles() {
        return profiles.get();
    }

    /**
     * @param profiles the profiles to merge, for example
     *     {@code fileTree('build/jp/profiles').include('**&#47;*.jpprof')}
     */
    public void setProfiles(FileCollection profiles) {
        this.profiles.set(profiles);
    }

    /**
     * The profiles the plugin gives when none were set on the task: those of a run of
     * {@code jpProfileTest}, whose runs are in {@code dir}.
     */
    void conventionProfiles(FileCollection profiles, File dir) {
        this.profiles.convention(profiles, dir);
    }

    /** @param outputDir the plugin's directory of the report, {@code build/reports/jp} */
    void conventionOutputDir(Provider<File> outputDir) {
        this.outputDir.convention(outputDir);
    }

    /** @param title the plugin's title, the project and its profiled test tasks */
    void conventionTitle(Provider<String> title) {
        this.title.convention(title);
    }

    /** @return the reports' title, by default {@code <project>: <profiled test tasks>} */
    @Input
    @Optional
    public String getTitle() {
        return title.get();
    }

    /** @param title the reports' title, shown in the HTML page's title and header and atop report.txt */
    public void setTitle(String title) {
        this.title.set(title);
    }

    /**
     * The source directories whose files the HTML report shows beside the hot methods' per-line
     * counts (of a run with {@code jp { lines = true }}); by default those of {@code jp.sourceSets}.
     *
     * @return the source directories
     */
    @InputFiles
    @PathSensitive(PathSensitivity.RELATIVE)
    public FileCollection getSourceDirs() {
        return sourceDirs;
    }

    /** @param sourceDirs the source directories */
    public void setSourceDirs(FileCollection sourceDirs) {
        this.sourceDirs = sourceDirs;
    }

    /**
     * The JFR recordings whose samples the reports attach to the profiles' contexts as sampled
     * metrics; by default, with {@code jp { jfr = true }}, those the profiled tests recorded beside
     * their profiles, else none.
     *
     * @return the recordings ({@code *.jfr})
     */
    @InputFiles
    @PathSensitive(PathSensitivity.NONE)
    public FileCollection getRecordings() {
        return recordings;
    }

    /** @param recordings the JFR recordings (or async-profiler collapsed stacks) */
    public void setRecordings(FileCollection recordings) {
        this.recordings = recordings;
    }

    /** @return the directory of the report ({@code build/reports/jp}) */
    @OutputDirectory
    public File getOutputDir() {
        return outputDir.get();
    }

    /** @param outputDir the directory of the report */
    public void setOutputDir(File outputDir) {
        this.outputDir.set(outputDir);
    }

    /** @return the HTML report, {@code index.html} in {@link #getOutputDir()} */
    @Internal("part of getOutputDir()")
    public File getHtmlFile() {
        return new File(getOutputDir(), "index.html");
    }

    /** @return the text report, {@code report.txt} in {@link #getOutputDir()} */
    @Internal("part of getOutputDir()")
    public File getTextFile() {
        return new File(getOutputDir(), "report.txt");
    }

    /** Merges the profiles and writes both reports, or says that there are none. */
    @TaskAction
    public void report() {
        List<File> files = new ArrayList<>(getProfiles().getFiles());
        Collections.sort(files);
        if (files.isEmpty()) {
            deleteStale(getHtmlFile());
            deleteStale(getTextFile());
            getLogger().lifecycle("jp: no profiles to report on{}; run {} first", profiles.where(), JpPlugin.PROFILE_TEST);
            setDidWork(false);
            return;
        }
        List<File> sources = new ArrayList<>(getSourceDirs().getFiles());
        List<File> samples = new ArrayList<>(getRecordings().getFiles());
        Collections.sort(samples);
        EngineBridge.report(files, ReportRequest.Format.HTML, getTitle(), sources, samples, getHtmlFile());
        EngineBridge.report(files, ReportRequest.Format.TEXT, getTitle(), sources, samples, getTextFile());
        getLogger()
                .lifecycle(
                        "jp: report of {} profile{}: {} and {}",
                        files.size(),
                        files.size() == 1 ? "" : "s",
                        getHtmlFile(),
                        getTextFile().getName());
    }

    private static void deleteStale(File report) {
        if (report.exists() && !report.delete()) {
            throw new GradleException("jp: cannot delete the old report " + report);
        }
    }
}
