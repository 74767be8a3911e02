package org.jpprof.gradle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gradle.api.Project;
import org.gradle.api.file.FileCollection;
import org.gradle.api.plugins.ExtraPropertiesExtension;

/**
 * The profiles each project of the build with JP reports on (those of its profiling test tasks'
 * newest runs), for {@code jpAggregateReport}. Kept in the root project's extra properties, in
 * Gradle types only, as {@link Instrumented} is.
 */
final class BuildProfiles {
    private static final String KEY = "org.jpprof.jp.profiles";

    private BuildProfiles() {}

    /** Publishes the profiles {@code project}'s jpReport reads. */
    static void publish(Project project, FileCollection profiles) {
        all(project).put(project.getPath(), profiles);
    }

    /** The profiles of {@code project} and of its subprojects, gathered when they are read. */
    static FileCollection of(final Project project) {
        return project.files(new Callable<List<FileCollection>>() {
            @Override
            public List<FileCollection> call() {
                Map<String, FileCollection> all = all(project);
                List<FileCollection> profiles = new ArrayList<>();
                for (Project each : project.getAllprojects()) {
                    FileCollection published = all.get(each.getPath());
                    if (published != null) profiles.add(published);
                }
                return profiles;
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, FileCollection> all(Project project) {
        ExtraPropertiesExtension extra = project.getRootProject().getExtensions().getExtraProperties();
        synchronized (extra) {
            if (!extra.has(KEY)) {
                extra.set(KEY, new LinkedHashMap<String, FileCollection>());
            }
            return (Map<String, FileCollection>) extra.get(KEY);
        }
    }
}
