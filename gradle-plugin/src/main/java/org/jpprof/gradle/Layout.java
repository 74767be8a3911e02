package org.jpprof.gradle;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.tasks.SourceSet;
import org.jpprof.engine.RuntimeJar;
import org.jpprof.engine.RuntimeOptions;

/**
 * Where JP's files of a project go, under its build directory (read each time: the build script
 * may move the build directory after the plugin is applied), and the runtime's settings of the
 * {@code jp { }} block.
 */
final class Layout {
    private final Project project;

    Layout(Project project) {
        this.project = project;
    }

    File buildDir() {
        return project.getLayout().getBuildDirectory().get().getAsFile();
    }

    /** {@code build/jp/<path>} */
    File jpDir(String path) {
        return new File(buildDir(), "jp/" + path);
    }

    /** {@code build/jp/classes/<sourceSet>}: a source set's instrumented classes. */
    File instrumentedDir(String sourceSet) {
        return jpDir("classes/" + sourceSet);
    }

    /** {@code build/jp/profiles/<name>}: the runs of profiles of a test task. */
    File profilesDir(String name) {
        return jpDir("profiles/" + name);
    }

    /**
     * JP's jars for a class path, written by jpRuntimeJars: the runtime's, and for {@code tests}
     * the test listeners' (which give each test run through JUnit Platform its own context).
     */
    List<File> runtimeJars(boolean tests) {
        Path dir = jpDir("runtime").toPath();
        List<File> jars = new ArrayList<>();
        jars.add(RuntimeJar.runtimeJarIn(dir).toFile());
        if (tests) jars.add(RuntimeJar.listenersJarIn(dir).toFile());
        return jars;
    }

    /** {@code jpInstrument} for {@code main}, else {@code jpInstrument<SourceSet>}. */
    static String instrumentTaskName(SourceSet sourceSet) {
        String name = sourceSet.getName();
        if (name.equals(SourceSet.MAIN_SOURCE_SET_NAME)) {
            return "jpInstrument";
        }
        return "jpInstrument" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    /**
     * The system properties {@code jp.agent} and {@code jp.granularity} of the profiled JVMs, those
     * set in the {@code jp { }} block; a wrong one fails the build naming the block.
     */
    Map<String, String> runtimeProperties(JpExtension extension) {
        Object setting = extension.getGranularity();
        String granularity = setting == null ? null : setting.toString();
        try {
            RuntimeOptions.check(extension.getAgent(), granularity);
        } catch (IllegalArgumentException e) {
            throw new GradleException("jp: " + e.getMessage() + ", in the jp { } block of project "
                    + project.getPath(), e);
        }
        return new LinkedHashMap<>(RuntimeOptions.properties(null, extension.getAgent(), granularity));
    }
}
