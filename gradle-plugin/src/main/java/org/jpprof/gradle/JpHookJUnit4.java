package org.jpprof.gradle;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.gradle.api.DefaultTask;
import org.gradle.api.GradleException;
import org.gradle.api.file.FileCollection;
import org.gradle.api.tasks.Classpath;
import org.gradle.api.tasks.OutputDirectory;
import org.gradle.api.tasks.TaskAction;
import org.jpprof.engine.HookJarRequest;

/**
 * Writes the hooked copy of junit's jar that a test task on Gradle's JUnit 4 framework runs with:
 * each {@code RunNotifier} it builds gets jp-junit's JUnit 4 listener (docs/gradle.md, "Per-test
 * profiles"). The copy is {@code build/jp/junit/<the jar's name>}, a name the test task's class
 * path can give before the copy exists; the engine makes it (cached by content under
 * {@code engine/}). A task, so that it happens when the build runs: with the configuration cache,
 * configuration comes before {@code clean}.
 */
public class JpHookJUnit4 extends DefaultTask {
    /** JUnit 4's notifier of test events, whose constructors get the hook. */
    static final String RUN_NOTIFIER = "org.junit.runner.notification.RunNotifier";
    /** jp-junit's hook: {@code static void attach(RunNotifier)}. */
    private static final String HOOK = "org.jpprof.junit.JUnit4Hook";
    private static final String HOOK_METHOD = "attach";

    private FileCollection jars;
    private File outputDir;

    /** @return junit's jar, or none when the tests do not run on Gradle's JUnit 4 framework */
    @Classpath
    public FileCollection getJars() {
        return jars;
    }

    /** @param jars junit's jar, or none */
    public void setJars(FileCollection jars) {
        this.jars = jars;
    }

    /** @return the directory of the hooked copies */
    @OutputDirectory
    public File getOutputDir() {
        return outputDir;
    }

    /** @param outputDir the directory of the hooked copies */
    public void setOutputDir(File outputDir) {
        this.outputDir = outputDir;
    }

    /** Where the hooked copy of {@code jar} goes in {@code outputDir}. */
    static File copyOf(File outputDir, File jar) {
        return new File(outputDir, jar.getName());
    }

    /** Writes the hooked copy of each jar, replacing an older one at once. */
    @TaskAction
    public void hook() {
        for (File jar : jars.getFiles()) {
            File hooked = EngineBridge.hookJar(new HookJarRequest(
                    jar.toPath(), RUN_NOTIFIER, HOOK, HOOK_METHOD, new File(outputDir, "engine").toPath()));
            Path target = copyOf(outputDir, jar).toPath();
            try {
                Path partial = Files.createTempFile(outputDir.toPath(), jar.getName(), ".partial");
                try {
                    Files.copy(hooked.toPath(), partial, StandardCopyOption.REPLACE_EXISTING);
                    Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } finally {
                    Files.deleteIfExists(partial);
                }
            } catch (IOException e) {
                throw new GradleException("jp: cannot write " + target + ": " + e, e);
            }
        }
    }
}
