package org.jpprof.gradle;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.file.FileCollection;
import org.gradle.api.plugins.ExtraPropertiesExtension;

/**
 * What each project of the build with JP's plugin instruments, for the class paths of every
 * project's profiled tests: a {@code :app} whose tests run {@code :core}'s classes (its jar, or
 * its class directories) runs them instrumented by {@code :core}'s instrument tasks.
 *
 * <p>Kept in the root project's extra properties, in JDK and Gradle types only: the projects of a
 * build may load the plugin in class loaders of their own, where this class is not the same.
 */
final class Instrumented {
    private static final String KEY = "org.jpprof.jp.instrumented";
    /** An entry's files: for each class directory or jar, what takes its place. */
    private static final int SUBSTITUTES = 0;
    /** An entry's instrument tasks, by path. */
    private static final int TASKS = 1;

    private Instrumented() {}

    /**
     * Publishes a project's instrumented outputs.
     *
     * @param project the project
     * @param substitutes for each class directory (and the jar) of its instrumented source sets,
     *     the files that replace it: the instrumented directory (and the resources the jar holds)
     * @param tasks the paths of the instrument tasks that write them
     */
    static void publish(Project project, Callable<Map<File, List<File>>> substitutes, Callable<List<String>> tasks) {
        all(project).put(project.getPath(), new Object[] {substitutes, tasks});
    }

    /**
     * The instrument tasks a class path needs: those of each project with JP whose tasks build a
     * file of the class path, and those of {@code project} itself.
     *
     * @param project the project of the test task
     * @param classpath the test task's class path, as the build made it
     * @param task the test task
     */
    static List<String> tasksFor(Project project, FileCollection classpath, Task task) {
        List<String> tasks = new ArrayList<>();
        for (Object[] entry : entriesFor(project, classpath, task).values()) {
            for (Object path : call(entry[TASKS], List.class)) {
                tasks.add((String) path);
            }
        }
        return tasks;
    }

    /**
     * The substitutes of the same projects as {@link #tasksFor}: only files whose instrumented
     * copy this build writes are replaced.
     */
    static Map<File, List<File>> substitutesFor(Project project, FileCollection classpath, Task task) {
        Map<File, List<File>> substitutes = new LinkedHashMap<>();
        for (Object[] entry : entriesFor(project, classpath, task).values()) {
            Map<?, ?> files = call(entry[SUBSTITUTES], Map.class);
            for (Map.Entry<?, ?> file : files.entrySet()) {
                List<File> replacement = new ArrayList<>();
                for (Object substitute : (List<?>) file.getValue()) {
                    replacement.add((File) substitute);
                }
                substitutes.put(((File) file.getKey()).getAbsoluteFile(), replacement);
            }
        }
        return substitutes;
    }

    /**
     * {@code classpath} with each file that has substitutes replaced by them, and {@code jars}
     * (JP's) appended, without duplicates.
     */
    static List<File> substitute(Iterable<File> classpath, Map<File, List<File>> substitutes, List<File> jars) {
        Set<File> out = new LinkedHashSet<>();
        for (File file : classpath) {
            List<File> replacement = substitutes.get(file.getAbsoluteFile());
            if (replacement == null) {
                out.add(file);
            } else {
                out.addAll(replacement);
            }
        }
        out.addAll(jars);
        return new ArrayList<>(out);
    }

    /** The entries of {@code project} and of the projects whose tasks build part of {@code classpath}. */
    private static Map<String, Object[]> entriesFor(Project project, FileCollection classpath, Task task) {
        Map<String, Object[]> all = all(project);
        Set<String> paths = new LinkedHashSet<>();
        paths.add(project.getPath());
        for (Task builder : classpath.getBuildDependencies().getDependencies(task)) {
            paths.add(builder.getProject().getPath());
        }
        Map<String, Object[]> entries = new LinkedHashMap<>();
        for (String path : paths) {
            Object[] entry = all.get(path);
            if (entry != null) entries.put(path, entry);
        }
        return entries;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object[]> all(Project project) {
        ExtraPropertiesExtension extra = project.getRootProject().getExtensions().getExtraProperties();
        synchronized (extra) {
            if (!extra.has(KEY)) {
                extra.set(KEY, new LinkedHashMap<String, Object[]>());
            }
            return (Map<String, Object[]>) extra.get(KEY);
        }
    }

    private static <T> T call(Object callable, Class<T> type) {
        try {
            return type.cast(((Callable<?>) callable).call());
        } catch (Exception e) {
            throw new GradleException("jp: cannot list the instrumented classes of the build: " + e, e);
        }
    }
}
