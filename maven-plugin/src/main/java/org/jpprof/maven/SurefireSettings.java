package org.jpprof.maven;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * Finds the settings of a build's Surefire that hide what the instrument goals hand it
 * ({@link TestProperties}), so that the tests would run without JP's runtime or on the classes the
 * compiler wrote, and words a warning for each. A POM's {@code <argLine>} replaces the
 * {@code argLine} property unless it names it ({@code @{argLine}}, or {@code @{jp.argLine}} for
 * JP's options alone); {@code <additionalClasspathElements>} likewise replaces
 * {@code maven.test.additionalClasspath}; {@code -DargLine=...} on the command line wins over the
 * project's property; and without {@code <classesDirectory>${jp.classesDirectory}</classesDirectory>}
 * the tests run on {@code target/classes}. The model read is the effective one, where Maven has
 * already put the values of properties that were defined when the POM was read: an
 * {@code ${argLine}} that Maven replaced then has lost JP's options too.
 */
final class SurefireSettings {
    static final String ARTIFACT = "maven-surefire-plugin";

    private SurefireSettings() {}

    /**
     * @param surefire the project's Surefire plugin, or {@code null} when the POM does not name it
     * @param user the build's user properties ({@code -D} on the command line)
     * @return the warnings, none when JP's settings reach the tests
     */
    static List<String> warnings(Plugin surefire, Properties user) {
        return warnings(surefire, user, false);
    }

    /**
     * @param surefire the project's Surefire plugin, or {@code null} when the POM does not name it
     * @param user the build's user properties ({@code -D} on the command line)
     * @param classesDirectorySet whether the build, not the POM, gives Surefire the instrumented
     *     classes (the lifecycle that {@code jp:profile} forks), so that the POM needs no
     *     {@code <classesDirectory>}
     * @return the warnings, none when JP's settings reach the tests
     */
    static List<String> warnings(Plugin surefire, Properties user, boolean classesDirectorySet) {
        List<Xpp3Dom> configurations = new ArrayList<>();
        if (surefire != null) {
            add(configurations, surefire.getConfiguration());
            for (PluginExecution execution : surefire.getExecutions()) {
                add(configurations, execution.getConfiguration());
            }
        }
        List<String> warnings = new ArrayList<>();
        String argLine = value(configurations, "argLine");
        if (argLine != null && !names(argLine, TestProperties.SUREFIRE_ARG_LINE) && !names(argLine, TestProperties.ARG_LINE)) {
            warnings.add("the <argLine> of " + ARTIFACT + " replaces the argLine property that carries JP's runtime"
                    + " options, so the tests run without them: write <argLine>@{argLine} " + argLine.trim() + "</argLine>");
        } else if (argLine == null && user.getProperty(TestProperties.SUREFIRE_ARG_LINE) != null) {
            warnings.add("-DargLine on the command line replaces the argLine property that carries JP's runtime"
                    + " options: give " + ARTIFACT + " <argLine>@{jp.argLine} ...</argLine> in the POM instead");
        }
        String classpath = value(configurations, "additionalClasspathElements");
        if (classpath != null && !classpath.contains(TestProperties.RUNTIME_JAR)) {
            warnings.add("the <additionalClasspathElements> of " + ARTIFACT + " replace the property that puts JP's"
                    + " runtime on the test class path: add <additionalClasspathElement>${jp.runtimeJar}"
                    + "</additionalClasspathElement> and ${jp.junitJar}");
        }
        String classes = value(configurations, "classesDirectory");
        if (!classesDirectorySet && (classes == null || !classes.contains(TestProperties.CLASSES))) {
            warnings.add("the tests run on " + (classes == null ? "the compiler's classes" : classes)
                    + ", not the instrumented ones: give " + ARTIFACT
                    + " <classesDirectory>${jp.classesDirectory}</classesDirectory>");
        }
        return warnings;
    }

    private static void add(List<Xpp3Dom> configurations, Object configuration) {
        if (configuration instanceof Xpp3Dom) configurations.add((Xpp3Dom) configuration);
    }

    /** The text of the last configuration that sets {@code name} (executions override the plugin's). */
    private static String value(List<Xpp3Dom> configurations, String name) {
        String value = null;
        for (Xpp3Dom configuration : configurations) {
            Xpp3Dom child = configuration.getChild(name);
            if (child != null) value = text(child);
        }
        return value;
    }

    /** An element's text, or for a list its items' texts one after another. */
    private static String text(Xpp3Dom element) {
        StringBuilder text = new StringBuilder(element.getValue() == null ? "" : element.getValue());
        for (Xpp3Dom child : element.getChildren()) {
            text.append(' ').append(text(child));
        }
        return text.toString();
    }

    /** Whether {@code text} refers to {@code property}, late ({@code @{...}}) or early ({@code ${...}}). */
    private static boolean names(String text, String property) {
        return text.contains("@{" + property + "}") || text.contains("${" + property + "}");
    }
}
