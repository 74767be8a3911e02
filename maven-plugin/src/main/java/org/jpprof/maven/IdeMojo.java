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
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.jpprof.engine.AtomicFiles;
import org.jpprof.engine.Classpaths;
import org.jpprof.engine.IdeConfig;

/**
 * Prints, and writes to {@code target/jp/ide.txt}, what an IDE run configuration needs to run
 * instrumented code: the class path of the application and that of the tests (the instrumented
 * classes in place of {@code target/classes}, plus the runtime jar) and the JVM options, with
 * profiles going to {@code target/jp/profiles/ide/}. It instruments first, so the directories it
 * names exist: {@code mvn compile jp:ide}.
 */
@Mojo(name = "ide", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
public class IdeMojo extends AbstractInstrumentMojo {
    /** The main class shown in the printed command line. */
    @Parameter(property = "jp.mainClass", defaultValue = "<main class>")
    protected String mainClass;

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
        List<File> main;
        List<File> test;
        try {
            main = Classpaths.swap(files(project.getRuntimeClasspathElements()), swap, runtimeJar);
            test = Classpaths.swap(files(project.getTestClasspathElements()), swap, runtimeJar, listenersJar);
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("jp: the class path is not resolved: " + e.getMessage(), e);
        }
        List<String> jvmArgs = runtimeJvmArgs(new File(profilesDirectory(), "ide/ide-%p.jpprof"));
        String text = IdeConfig.render("mvn jp:ide", "mvn compile jp:instrument", main, test, jvmArgs, mainClass);
        File out = new File(jpDirectory, "ide.txt");
        write(out.toPath(), text);
        getLog().info("jp: IDE settings (written to " + out + "):\n" + text);
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
