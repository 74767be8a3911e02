package org.jpprof.gradle;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.gradle.api.DefaultTask;
import org.gradle.api.file.FileCollection;
import org.gradle.api.tasks.CacheableTask;
import org.gradle.api.tasks.InputFiles;
import org.gradle.api.tasks.Internal;
import org.gradle.api.tasks.OutputDirectory;
import org.gradle.api.tasks.PathSensitive;
import org.gradle.api.tasks.PathSensitivity;
import org.gradle.api.tasks.SkipWhenEmpty;
import org.gradle.api.tasks.TaskAction;

/**
 * Renders profiles (by default those of the last {@code jpProfileTest}) as one report: the
 * profiles are merged by calling context, so the forked test JVMs' profiles make one tree.
 * Writes {@code index.html} (an interactive call tree, flame graph and hot methods, in one file)
 * and {@code report.txt} into {@code build/reports/jp}. With no profile the task is skipped
 * (NO-SOURCE).
 */
@CacheableTask
public class JpReport extends DefaultTask {
    private FileCollection profiles;
    private boolean profilesSet;
    private File outputDir;

    /** A task with no profiles until the plugin (or the build script) sets them. */
    public JpReport() {
        profiles = getProject().files();
    }

    /** @return the profiles to merge ({@code *.jpprof}) */
    @InputFiles
    @SkipWhenEmpty
    @PathSensitive(PathSensitivity.NONE)
    public FileCollection getProfiles() {
        return profiles;
    }

    /**
     * @param profiles the profiles to merge, for example
     *     {@code fileTree('build/jp/profiles').include('**&#47;*.jpprof')}
     */
    public void setProfiles(FileCollection profiles) {
        this.profiles = profiles;
        this.profilesSet = true;
    }

    /** The profiles the plugin gives when none were set on the task. */
    void conventionProfiles(FileCollection profiles) {
        if (!profilesSet) {
            this.profiles = profiles;
        }
    }

    /** @return the directory of the report ({@code build/reports/jp}) */
    @OutputDirectory
    public File getOutputDir() {
        return outputDir;
    }

    /** @param outputDir the directory of the report */
    public void setOutputDir(File outputDir) {
        this.outputDir = outputDir;
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

    /** Merges the profiles and writes both reports. */
    @TaskAction
    public void report() {
        List<File> files = new ArrayList<>(getProfiles().getFiles());
        EngineBridge.report(files, "html", getHtmlFile());
        EngineBridge.report(files, "text", getTextFile());
        getLogger()
                .lifecycle(
                        "jp: report of {} profile{}: {}",
                        files.size(),
                        files.size() == 1 ? "" : "s",
                        getHtmlFile().toURI());
    }
}
