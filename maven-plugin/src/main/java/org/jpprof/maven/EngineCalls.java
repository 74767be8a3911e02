package org.jpprof.maven;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.jpprof.engine.BuildPlugin;
import org.jpprof.engine.Engine;
import org.jpprof.engine.EngineException;
import org.jpprof.engine.InstrumentRequest;
import org.jpprof.engine.InstrumentResult;
import org.jpprof.engine.RuntimeJar;

/**
 * Every call from the plugin into JP's engine (the {@code org.jpprof.engine} facade of
 * jp-engine), with the facade's exceptions turned into goal failures whose messages name the
 * file. The plugin computes nothing itself: class files, hashing, the cache and reports are the
 * engine's.
 */
final class EngineCalls {
    private EngineCalls() {}

    /** What to instrument, besides the directories: the settings of the goal. */
    static final class Settings {
        final String bba;
        final Boolean lines;
        /** The extra metrics' names, or {@code null} for the config file's. */
        final List<String> metrics;
        final List<String> includes;
        final List<String> excludes;
        final File configFile;

        Settings(String bba, Boolean lines, List<String> metrics, List<String> includes, List<String> excludes,
                File configFile) {
            this.bba = bba;
            this.lines = lines;
            this.metrics = metrics == null ? null : patterns(metrics);
            this.includes = patterns(includes);
            this.excludes = patterns(excludes);
            this.configFile = configFile;
        }

        /**
         * The items (patterns, metrics' names), trimmed, without empty items: Maven makes {@code -Djp.includes=a,,b} a
         * list with a {@code null} in it, and a trailing comma is an easy slip.
         */
        static List<String> patterns(List<String> items) {
            List<String> patterns = new ArrayList<>();
            if (items != null) {
                for (String item : items) {
                    if (item != null && !item.trim().isEmpty()) {
                        patterns.add(item.trim());
                    }
                }
            }
            return patterns;
        }
    }

    /**
     * Instruments a class directory.
     *
     * @param input the compiler's class directory
     * @param output the directory of the instrumented classes
     * @param cacheDir the engine's cache
     * @param settings the analysis and the classes to instrument
     * @return the engine's result, without errors
     * @throws MojoExecutionException if the engine cannot run or refuses the request as a whole
     * @throws MojoFailureException if some class could not be instrumented, naming each file
     */
    static InstrumentResult instrument(File input, File output, File cacheDir, Settings settings)
            throws MojoExecutionException, MojoFailureException {
        if (settings.configFile != null && !settings.configFile.isFile()) {
            throw new MojoExecutionException("jp: " + settings.configFile.getAbsolutePath()
                    + ": the configFile does not exist");
        }
        InstrumentRequest request = request(input, output, cacheDir, settings);
        InstrumentResult result;
        try {
            result = engine().instrument(request);
        } catch (EngineException e) {
            throw new MojoExecutionException("jp: " + e.getMessage(), e);
        }
        if (result.hasErrors()) {
            throw new MojoFailureException("jp: " + result.errorMessage());
        }
        return result;
    }

    /**
     * The engine's request to instrument {@code input} with the goal's settings.
     *
     * @throws MojoExecutionException if the analysis is not one the engine knows
     */
    static InstrumentRequest request(File input, File output, File cacheDir, Settings settings)
            throws MojoExecutionException {
        return InstrumentRequest.builder()
                .input(input.toPath())
                .output(output.toPath())
                .cacheDir(cacheDir.toPath())
                .bba(bba(settings.bba))
                .lines(settings.lines)
                .metrics(metrics(settings.metrics))
                .include(settings.includes)
                .exclude(settings.excludes)
                .configFile(settings.configFile == null ? null : settings.configFile.toPath())
                .build();
    }

    /**
     * Writes JP's runtime jar into {@code dir}, unless it is there already.
     *
     * @param dir the directory
     * @return the jar
     * @throws MojoExecutionException if the jar cannot be written
     */
    static File runtimeJar(File dir) throws MojoExecutionException {
        checkVersion();
        try {
            Path jar = RuntimeJar.extractTo(dir.toPath());
            return jar.toFile();
        } catch (EngineException e) {
            throw new MojoExecutionException("jp: " + e.getMessage(), e);
        }
    }

    /**
     * Writes the jar of JP's test listeners into {@code dir}, unless it is there already.
     *
     * @param dir the directory
     * @return the jar
     * @throws MojoExecutionException if the jar cannot be written
     */
    static File listenersJar(File dir) throws MojoExecutionException {
        checkVersion();
        try {
            return RuntimeJar.extractListenersTo(dir.toPath()).toFile();
        } catch (EngineException e) {
            throw new MojoExecutionException("jp: " + e.getMessage(), e);
        }
    }

    private static List<InstrumentRequest.Metric> metrics(List<String> names) throws MojoExecutionException {
        try {
            return InstrumentRequest.Metric.allNamed(names);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("jp: " + e.getMessage(), e);
        }
    }

    private static InstrumentRequest.Bba bba(String name) throws MojoExecutionException {
        if (name == null || name.trim().isEmpty()) {
            return null;
        }
        try {
            return InstrumentRequest.Bba.named(name);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("jp: " + e.getMessage(), e);
        }
    }

    /** Fails unless jp-engine has this plugin's version (a POM can override a plugin's dependencies). */
    private static void checkVersion() throws MojoExecutionException {
        try {
            Engine.checkPluginVersion(BuildPlugin.MAVEN, BuildPlugin.MAVEN.version(EngineCalls.class));
        } catch (EngineException e) {
            throw new MojoExecutionException("jp: " + e.getMessage(), e);
        }
    }

    /** The engine, after checking that jp-engine is the plugin's version. */
    static Engine engine() throws MojoExecutionException {
        checkVersion();
        return Engine.load();
    }
}
