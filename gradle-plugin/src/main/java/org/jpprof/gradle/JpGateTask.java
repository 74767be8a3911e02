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
import org.gradle.api.tasks.Internal;

/**
 * What {@code jpBaseline} and {@code jpCheck} share: the profiles of a run of
 * {@code jpProfileTest}, the baseline file, and the instrumentation settings the baseline records
 * (docs/regression-testing.md). The engine does the work; these tasks only wire.
 *
 * <p>They always run: a check reads a file that the build does not produce, and its verdict is
 * what the build is for.
 */
public abstract class JpGateTask extends DefaultTask {
    private final ProfilesSetting profiles;
    private final Setting<File> baselineFile = new Setting<>();
    private final Setting<List<String>> include = new Setting<>();
    private final Setting<List<String>> exclude = new Setting<>();
    private final Setting<File> baselineProfilesDir = new Setting<>();

    /** A task with no profiles until the plugin (or the build script) sets them. */
    protected JpGateTask() {
        profiles = new ProfilesSetting(getProject());
        getOutputs().upToDateWhen(new Spec<Task>() {
            @Override
            public boolean isSatisfiedBy(Task task) {
                return false;
            }
        });
    }

    /** @return the profiles of the run ({@code *.jpprof}) */
    @Internal("read by the engine; the task always runs")
    public FileCollection getProfiles() {
        return profiles.get();
    }

    /** @param profiles the profiles of the run */
    public void setProfiles(FileCollection profiles) {
        this.profiles.set(profiles);
    }

    /** The profiles of the plugin's jpProfileTest runs, in {@code dir}, for messages. */
    void conventionProfiles(FileCollection profiles, File dir) {
        this.profiles.convention(profiles, dir);
    }

    /** @return the baseline file (default {@code jp-baseline.txt} in the project directory) */
    @Internal("read or written by the engine")
    public File getBaselineFile() {
        return baselineFile.get();
    }

    /** @param baselineFile the baseline file */
    public void setBaselineFile(File baselineFile) {
        this.baselineFile.set(baselineFile);
    }

    /** @return the include patterns the classes were instrumented with (the extension's) */
    @Internal("recorded in the baseline")
    public List<String> getInclude() {
        List<String> set = include.get();
        return set == null ? new ArrayList<String>() : set;
    }

    /** @param include the include patterns */
    public void setInclude(List<String> include) {
        this.include.set(new ArrayList<>(include));
    }

    /** @return the exclude patterns the classes were instrumented with (the extension's) */
    @Internal("recorded in the baseline")
    public List<String> getExclude() {
        List<String> set = exclude.get();
        return set == null ? new ArrayList<String>() : set;
    }

    /** @param exclude the exclude patterns */
    public void setExclude(List<String> exclude) {
        this.exclude.set(new ArrayList<>(exclude));
    }

    /**
     * @return where {@code jpBaseline} keeps a copy of the profiles it recorded, for {@code jpCheck}
     *     to diff against ({@code build/jp/baseline-profiles}; never committed)
     */
    @Internal("written and read by the engine")
    public File getBaselineProfilesDir() {
        return baselineProfilesDir.get();
    }

    /** @param baselineProfilesDir where the baseline's profiles are kept */
    public void setBaselineProfilesDir(File baselineProfilesDir) {
        this.baselineProfilesDir.set(baselineProfilesDir);
    }

    /**
     * The settings the plugin gives: the {@code jp { }} block's, and where the baseline's profiles
     * are kept.
     */
    void conventions(
            Provider<File> baselineFile,
            Provider<List<String>> include,
            Provider<List<String>> exclude,
            Provider<File> baselineProfilesDir) {
        this.baselineFile.convention(baselineFile);
        this.include.convention(include);
        this.exclude.convention(exclude);
        this.baselineProfilesDir.convention(baselineProfilesDir);
    }

    /** The profiles as paths. */
    static List<java.nio.file.Path> toPaths(List<File> files) {
        List<java.nio.file.Path> paths = new ArrayList<>();
        for (File file : files) {
            paths.add(file.toPath());
        }
        return paths;
    }

    /**
     * The profiles, sorted.
     *
     * @return the profiles
     * @throws GradleException when there are none, saying where they were looked for
     */
    List<File> profileFiles() {
        List<File> files = new ArrayList<>(getProfiles().getFiles());
        Collections.sort(files);
        if (files.isEmpty()) {
            throw new GradleException("jp: no profiles" + profiles.where()
                    + "; run " + JpPlugin.PROFILE_TEST + " first");
        }
        return files;
    }
}
