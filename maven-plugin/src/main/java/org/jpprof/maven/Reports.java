package org.jpprof.maven;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.maven.plugin.MojoExecutionException;
import org.jpprof.engine.EngineException;
import org.jpprof.engine.ReportRequest;

/** The plugin's calls of the engine's report entry point ({@code Engine.report}). */
final class Reports {
    /** The directory of a run of profiles that its test JVMs' JFR recordings go into. */
    static final String RECORDINGS = "jfr";

    private Reports() {}

    /**
     * Merges profiles into one report.
     *
     * @param profiles the profiles
     * @param format the report's format
     * @param metric the metric to show first, or {@code null} for the report's default
     * @param title the report's title, the module's artifactId
     * @param sources the directories of the sources the HTML report shows the hot methods' lines in
     * @param recordings the JFR recordings whose samples the report attaches to the profiles' contexts
     * @param out the report file
     * @throws MojoExecutionException if a profile cannot be read or the report cannot be
     *     written, naming the file
     */
    static void report(
            List<File> profiles,
            ReportRequest.Format format,
            ReportRequest.Metric metric,
            String title,
            List<File> sources,
            List<File> recordings,
            File out)
            throws MojoExecutionException {
        ReportRequest.Builder request = ReportRequest.builder();
        for (File profile : profiles) {
            request.profile(profile.toPath());
        }
        List<Path> samples = new ArrayList<>();
        for (File recording : recordings) {
            samples.add(recording.toPath());
        }
        request.format(format).title(title).sources(existingDirs(sources)).samples(samples).out(out.toPath());
        if (metric != null) {
            request.metric(metric);
        }
        try {
            EngineCalls.engine().report(request.build());
        } catch (EngineException e) {
            throw new MojoExecutionException("jp: " + e.getMessage(), e);
        }
    }

    /**
     * The JVM option that has a test JVM record JFR into the {@value #RECORDINGS} directory of the
     * run of profiles {@code run}, created here: a directory as the file name, so that each forked
     * JVM writes a recording of its own there, named after its pid.
     *
     * @param run the run of profiles
     * @return the option
     * @throws MojoExecutionException if the directory cannot be created
     */
    static String jfrJvmArg(File run) throws MojoExecutionException {
        File recordings = new File(run, RECORDINGS);
        if (!recordings.isDirectory() && !recordings.mkdirs()) {
            throw new MojoExecutionException("jp: cannot create " + recordings);
        }
        return "-XX:StartFlightRecording=filename=" + recordings.getAbsolutePath() + ",settings=profile";
    }

    /**
     * The JFR recordings of the runs that hold {@code profiles}, in name order: those the test
     * JVMs wrote with {@code jp.jfr}, none otherwise.
     *
     * @param profiles the profiles of a report
     * @return the recordings
     */
    static List<File> recordingsOf(List<File> profiles) {
        Set<File> runs = new TreeSet<>();
        for (File profile : profiles) {
            runs.add(profile.getParentFile());
        }
        List<File> recordings = new ArrayList<>();
        for (File run : runs) {
            File[] found = new File(run, RECORDINGS).listFiles((dir, name) -> name.endsWith(".jfr"));
            if (found != null) {
                Arrays.sort(found);
                recordings.addAll(Arrays.asList(found));
            }
        }
        return recordings;
    }

    /**
     * The directories of {@code dirs} that exist, as paths: a module's source roots may name
     * directories that are not there (generated sources of a run that made none).
     *
     * @param dirs the source roots
     * @return those that are directories, in order
     */
    static List<Path> existingDirs(List<File> dirs) {
        List<Path> existing = new ArrayList<>();
        for (File dir : dirs) {
            if (dir.isDirectory()) {
                existing.add(dir.toPath());
            }
        }
        return existing;
    }

    /**
     * The metric named by the goal's {@code metric} parameter.
     *
     * @param name {@code calls}, {@code bytecodes} or {@code null}
     * @return the metric, or {@code null}
     * @throws MojoExecutionException naming the metrics there are
     */
    static ReportRequest.Metric metric(String name) throws MojoExecutionException {
        if (name == null || name.trim().isEmpty()) {
            return null;
        }
        try {
            return ReportRequest.Metric.named(name);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("jp: " + e.getMessage(), e);
        }
    }
}
