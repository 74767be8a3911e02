package org.jpprof.gradle;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.gradle.api.GradleException;
import org.jpprof.engine.BaselineRequest;
import org.jpprof.engine.BuildPlugin;
import org.jpprof.engine.CheckRequest;
import org.jpprof.engine.CheckResult;
import org.jpprof.engine.Engine;
import org.jpprof.engine.EngineException;
import org.jpprof.engine.HookJarRequest;
import org.jpprof.engine.InstrumentRequest;
import org.jpprof.engine.InstrumentResult;
import org.jpprof.engine.ReportRequest;

/**
 * Every call from the plugin into JP's engine (the {@code org.jpprof.engine} facade of jp-engine),
 * with the facade's exceptions turned into task failures. The plugin computes nothing itself:
 * class files, hashing, the cache and directory walks are the engine's.
 */
final class EngineBridge {
    private EngineBridge() {}

    /**
     * Instruments class directories.
     *
     * @param inputs the class directories (existing ones)
     * @param output the output directory
     * @param cacheDir the engine's cache directory
     * @param bba {@code default}, {@code precise} or {@code null}
     * @param lines whether to count bytecodes per source line, or {@code null} for the config file's
     * @param metrics the extra metrics to count ({@code allocations}), or {@code null} for the config file's
     * @param include patterns of classes to instrument
     * @param exclude patterns of classes to copy unchanged
     * @param configFile a {@code jp.toml}, or {@code null}
     * @return the engine's result; per-input errors are in it, not thrown
     * @throws GradleException if the engine cannot be loaded or refuses the request as a whole
     */
    static InstrumentResult instrument(
            List<File> inputs,
            File output,
            File cacheDir,
            String bba,
            Boolean lines,
            List<String> metrics,
            List<String> include,
            List<String> exclude,
            File configFile) {
        InstrumentRequest.Builder request = InstrumentRequest.builder().output(output.toPath());
        for (File input : inputs) {
            request.input(input.toPath());
        }
        request.cacheDir(cacheDir == null ? null : cacheDir.toPath())
                .bba(bba(bba))
                .lines(lines)
                .metrics(metrics(metrics))
                .include(include)
                .exclude(exclude)
                .configFile(configFile == null ? null : configFile.toPath());
        try {
            return engine().instrument(request.build());
        } catch (EngineException e) {
            throw new GradleException("jp: " + e.getMessage(), e);
        }
    }

    /**
     * Merges profiles and writes one report, atomically.
     *
     * @param profiles the profiles
     * @param format the report's format
     * @param title the reports' title, or {@code null} for the engine's
     * @param sources the directories of the sources the HTML report shows the hot methods' lines in
     * @param out the report file
     * @throws GradleException if a profile cannot be read (each such file is named) or the report
     *     cannot be written (the file is named)
     */
    static void report(
            List<File> profiles,
            ReportRequest.Format format,
            String title,
            List<File> sources,
            List<File> recordings,
            File out) {
        ReportRequest.Builder request = ReportRequest.builder()
                .format(format)
                .metric(ReportRequest.Metric.BYTECODES)
                .out(out.toPath());
        if (title != null) request.title(title);
        List<Path> sourceDirs = new ArrayList<>();
        for (File dir : sources) sourceDirs.add(dir.toPath());
        request.sources(sourceDirs);
        List<Path> samples = new ArrayList<>();
        for (File recording : recordings) samples.add(recording.toPath());
        request.samples(samples);
        for (File profile : profiles) {
            request.profile(profile.toPath());
        }
        try {
            engine().report(request.build());
        } catch (EngineException e) {
            throw new GradleException("jp: cannot write the report " + out + ":\n  "
                    + e.getMessage().replace("\n", "\n  "), e);
        }
    }

    /**
     * Records a baseline.
     *
     * @param request the baseline, ready to build
     * @return what was recorded, as {@code n tests and m methods}
     * @throws GradleException if a profile cannot be read or a file cannot be written
     */
    static String baseline(BaselineRequest.Builder request) {
        BaselineRequest built = request.build();
        try {
            return engine().baseline(built);
        } catch (EngineException e) {
            throw new GradleException("jp: cannot record the baseline " + built.out() + ":\n  "
                    + e.getMessage().replace("\n", "\n  "), e);
        }
    }

    /**
     * Checks profiles against a baseline.
     *
     * @param request the check, ready to build
     * @return what the check found; a regression is a result
     * @throws GradleException if no comparison can be made (no baseline, a malformed one, one of
     *     other settings, unreadable profiles), with the engine's message
     */
    static CheckResult check(CheckRequest.Builder request) {
        try {
            return engine().check(request.build());
        } catch (EngineException e) {
            throw new GradleException("jp: " + e.getMessage().replace("\n", "\n  "), e);
        }
    }

    /**
     * The copy of a jar in which the constructors of one class call a static hook.
     *
     * @param request the jar, the class, the hook and the directory of the copies
     * @return the copy (reused when in place)
     * @throws GradleException if the engine cannot be loaded, or cannot make the copy
     */
    static File hookJar(HookJarRequest request) {
        try {
            return engine().hookJar(request).toFile();
        } catch (EngineException e) {
            throw new GradleException("jp: " + e.getMessage(), e);
        }
    }

    /** The metrics {@code names} names; a name the engine does not know fails the build, listing the known ones. */
    private static List<InstrumentRequest.Metric> metrics(List<String> names) {
        try {
            return InstrumentRequest.Metric.allNamed(names);
        } catch (IllegalArgumentException e) {
            throw new GradleException("jp: " + e.getMessage(), e);
        }
    }

    private static InstrumentRequest.Bba bba(String name) {
        if (name == null) {
            return null;
        }
        try {
            return InstrumentRequest.Bba.named(name);
        } catch (IllegalArgumentException e) {
            throw new GradleException("jp: " + e.getMessage(), e);
        }
    }

    /**
     * The plugin's own version, which its build writes beside its classes.
     *
     * @return the version, for example {@code 0.1.0}
     */
    static String pluginVersion() {
        try {
            return BuildPlugin.GRADLE.version(EngineBridge.class);
        } catch (EngineException e) {
            throw new GradleException("jp: " + e.getMessage(), e);
        }
    }

    /** The engine, after checking that jp-engine is the plugin's version. */
    private static Engine engine() {
        String version = pluginVersion();
        try {
            Engine.checkPluginVersion(BuildPlugin.GRADLE, version);
        } catch (EngineException e) {
            throw new GradleException("jp: " + e.getMessage(), e);
        }
        return Engine.load();
    }
}
