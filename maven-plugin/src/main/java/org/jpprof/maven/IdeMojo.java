package org.jpprof.maven;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.model.Plugin;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.util.xml.Xpp3Dom;
import org.jpprof.engine.AtomicFiles;
import org.jpprof.engine.Classpaths;
import org.jpprof.engine.IdeConfig;
import org.jpprof.engine.IdeRunFiles;

/**
 * Prints, and writes to {@code target/jp/ide.txt}, what an IDE run configuration needs to run
 * instrumented code: the class path of the application and that of the tests (the instrumented
 * classes in place of {@code target/classes}, plus the runtime jar) and the JVM options, with
 * profiles going to {@code target/jp/profiles/ide/}. It instruments first, so the directories it
 * names exist: {@code mvn compile jp:ide}. Unless {@code jp.ideFiles} is false, it also writes run
 * configurations for IntelliJ IDEA and Eclipse into {@code .run/} of the top project of the build
 * ({@link IdeRunFiles}): one for the main class, when known, and one for the tests.
 */
@Mojo(name = "ide", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
public class IdeMojo extends AbstractInstrumentMojo {
    private static final String REFRESH = "compile jp:instrument";

    /**
     * The application's main class: in the printed command line, and the class the IDE run
     * configuration runs. Unset: the {@code mainClass} of maven-jar-plugin's manifest or of
     * exec-maven-plugin, as configured for the plugin in the POM; else none (no configuration for
     * the application is written).
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.mainClass")
    protected String mainClass;

    /**
     * Whether to write the IntelliJ IDEA ({@code .run/*.run.xml}) and Eclipse
     * ({@code .run/*.launch}) run configurations; false leaves {@code target/jp/ide.txt} only.
     *
     * @since 0.1.0
     */
    @Parameter(property = "jp.ideFiles", defaultValue = "true")
    protected boolean ideFiles;

    @Override
    protected String goalName() {
        return "ide";
    }

    @Override
    protected void run() throws MojoExecutionException, MojoFailureException {
        if (!hasClasses(classesDirectory, project.getCompileSourceRoots(), "compile")) {
            throw new MojoExecutionException("jp: no classes in " + classesDirectory + "; run `mvn compile jp:ide`");
        }
        File instrumented = new File(jpDirectory, "classes");
        instrument(classesDirectory, instrumented, "classes");
        File runtimeJar = EngineCalls.runtimeJar(new File(jpDirectory, "runtime"));
        File listenersJar = EngineCalls.listenersJar(new File(jpDirectory, "runtime"));
        Map<File, File> swap = Collections.singletonMap(classesDirectory.getAbsoluteFile(), instrumented);
        List<File> originalMain;
        List<File> originalTest;
        try {
            originalMain = files(project.getRuntimeClasspathElements());
            originalTest = files(project.getTestClasspathElements());
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("jp: the class path is not resolved: " + e.getMessage(), e);
        }
        List<File> main = Classpaths.swap(originalMain, swap, runtimeJar);
        List<File> test = Classpaths.swap(originalTest, swap, runtimeJar, listenersJar);
        List<String> jvmArgs = runtimeJvmArgs(new File(profilesDirectory(), "ide/ide-%p.jpprof"));
        String runClass = mainClass();
        String text = IdeConfig.render("mvn jp:ide", "mvn " + REFRESH, main, test, jvmArgs,
                runClass == null ? "<main class>" : runClass);
        File out = new File(jpDirectory, "ide.txt");
        write(out.toPath(), text);
        getLog().info("jp: IDE settings (written to " + out + "):\n" + text);
        if (!ideFiles) {
            return;
        }
        IdeRunFiles files = new IdeRunFiles(
                "mvn jp:ide", session.getTopLevelProject().getBasedir(), project.getBasedir(), project.getArtifactId());
        if (runClass != null) {
            files.application(runClass, originalMain, main);
        }
        files.tests(originalTest, test).jvmArgs(jvmArgs).mavenBeforeRun(project.getFile(), REFRESH);
        try {
            for (String line : files.write()) {
                getLog().info("jp: " + line);
            }
        } catch (IOException e) {
            throw new MojoExecutionException("jp: cannot write the IDE run configurations: " + e.getMessage(), e);
        }
    }

    /** {@code jp.mainClass}, else the one the jar or exec plugin is configured with. */
    private String mainClass() {
        return mainClass != null ? mainClass : configuredMainClass(project);
    }

    /**
     * The main class of maven-jar-plugin's manifest, else exec-maven-plugin's, as the POM
     * configures the plugin itself (not one of its executions); or null.
     */
    static String configuredMainClass(MavenProject project) {
        String manifest =
                pluginSetting(project, "org.apache.maven.plugins:maven-jar-plugin", "archive", "manifest", "mainClass");
        return manifest != null ? manifest : pluginSetting(project, "org.codehaus.mojo:exec-maven-plugin", "mainClass");
    }

    private static String pluginSetting(MavenProject project, String plugin, String... path) {
        Plugin declared = project.getPlugin(plugin);
        if (declared == null || !(declared.getConfiguration() instanceof Xpp3Dom)) {
            return null;
        }
        Xpp3Dom node = (Xpp3Dom) declared.getConfiguration();
        for (String name : path) {
            node = node.getChild(name);
            if (node == null) {
                return null;
            }
        }
        String value = node.getValue();
        return value == null || value.trim().isEmpty() ? null : value.trim();
    }

    private static List<File> files(List<String> paths) {
        List<File> files = new ArrayList<>();
        for (String path : paths) {
            files.add(new File(path));
        }
        return files;
    }

    private static void write(Path file, String text) throws MojoExecutionException {
        try {
            AtomicFiles.write(file, text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new MojoExecutionException("jp: " + file + ": cannot write the IDE settings: " + e, e);
        }
    }
}
