package org.jpprof.maven;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The project properties through which the instrument goals hand the test run to Surefire
 * (docs/maven.md, "Running the tests on instrumented classes"):
 *
 * <ul>
 *   <li>{@code jp.classesDirectory} and {@code jp.testClassesDirectory}: the class directories the
 *       tests should run on, for Surefire's {@code classesDirectory} and
 *       {@code testClassesDirectory} (which have no property of their own);
 *   <li>{@code argLine}, Surefire's own property, with JP's options in front of what the build
 *       has, and {@code jp.argLine}, JP's options alone, for a Surefire configuration that
 *       composes its argLine itself ({@code @{jp.argLine} -Xmx1g});
 *   <li>{@code maven.test.additionalClasspath}, Surefire's own property, with the runtime jar
 *       and the test listeners' jar added, and {@code jp.runtimeJar} and {@code jp.junitJar},
 *       each jar alone;
 *   <li>{@code maven.test.dependency.excludes}, Surefire's own property, with the modules of the
 *       build whose instrumented copies {@code maven.test.additionalClasspath} then carries.
 * </ul>
 *
 * A mojo's parameters see these because Maven evaluates {@code ${...}} in a plugin's configuration
 * when the mojo runs, against the command line's properties first, then the project's.
 */
final class TestProperties {
    static final String CLASSES = "jp.classesDirectory";
    static final String TEST_CLASSES = "jp.testClassesDirectory";
    static final String ARG_LINE = "jp.argLine";
    static final String RUNTIME_JAR = "jp.runtimeJar";
    static final String LISTENERS_JAR = "jp.junitJar";
    static final String SUREFIRE_ARG_LINE = "argLine";
    static final String SUREFIRE_CLASSPATH = "maven.test.additionalClasspath";
    static final String SUREFIRE_EXCLUDES = "maven.test.dependency.excludes";

    private TestProperties() {}

    /**
     * The properties that run the tests with JP's runtime: its jar and the test listeners' on the
     * class path, and its options on the command line.
     *
     * @param project the project's properties, as they are now
     * @param user the build's user properties ({@code -D} on the command line)
     * @param runtimeJar the runtime jar
     * @param listenersJar the test listeners' jar
     * @param jvmArgs the runtime's options, {@code -Djp.output=...} and the agent's
     * @return the properties to set on the project
     */
    static Map<String, String> runtime(
            Properties project, Properties user, File runtimeJar, File listenersJar, List<String> jvmArgs) {
        Map<String, String> out = new LinkedHashMap<>();
        String jp = ArgLine.join(jvmArgs);
        out.put(ARG_LINE, jp);
        out.put(SUREFIRE_ARG_LINE, ArgLine.prepend(
                lookup(project, user, SUREFIRE_ARG_LINE), project.getProperty(ARG_LINE), jp));
        String jar = runtimeJar.getAbsolutePath();
        out.put(RUNTIME_JAR, jar);
        putListeners(out, ArgLine.appendItem(lookup(project, user, SUREFIRE_CLASSPATH), jar), listenersJar);
        return out;
    }

    /**
     * The properties that run the tests on instrumented copies of other modules of the build: the
     * originals are left out of the test class path, and the copies added to it. Called after
     * {@link #runtime}, whose class path it extends.
     *
     * @param project the project's properties, as they are now
     * @param user the build's user properties
     * @param dependencies the instrumented dependencies
     * @return the properties to set on the project
     */
    static Map<String, String> reactorDependencies(
            Properties project, Properties user, List<ReactorDependencies.Dependency> dependencies) {
        Map<String, String> out = new LinkedHashMap<>();
        String excludes = lookup(project, user, SUREFIRE_EXCLUDES);
        String classpath = project.getProperty(SUREFIRE_CLASSPATH);
        for (ReactorDependencies.Dependency dependency : dependencies) {
            excludes = ArgLine.appendItem(excludes, dependency.id);
            classpath = ArgLine.appendItem(classpath, dependency.classpathElement.getAbsolutePath());
        }
        if (!dependencies.isEmpty()) {
            out.put(SUREFIRE_EXCLUDES, excludes);
            out.put(SUREFIRE_CLASSPATH, classpath);
        }
        return out;
    }

    /**
     * The properties that put the test listeners' jar alone on the class path, for a build that
     * leaves the tests alone: a Surefire configuration that names JP's JUnit 4 listener (docs/maven.md)
     * must find it, and without the runtime it does nothing.
     *
     * @param project the project's properties, as they are now
     * @param user the build's user properties
     * @param listenersJar the test listeners' jar
     * @return the properties to set on the project
     */
    static Map<String, String> listeners(Properties project, Properties user, File listenersJar) {
        Map<String, String> out = new LinkedHashMap<>();
        putListeners(out, lookup(project, user, SUREFIRE_CLASSPATH), listenersJar);
        return out;
    }

    private static void putListeners(Map<String, String> out, String classpath, File listenersJar) {
        String jar = listenersJar.getAbsolutePath();
        out.put(LISTENERS_JAR, jar);
        out.put(SUREFIRE_CLASSPATH, ArgLine.appendItem(classpath, jar));
    }

    /**
     * The properties of a build that leaves the tests alone ({@code jp.skip}, or no classes): the
     * class directories are the compiler's and JP adds no options. Values an earlier goal of this
     * build set are kept.
     *
     * @param project the project's properties, as they are now
     * @param classes the compiler's class directory
     * @param testClasses the compiler's test class directory
     * @return the properties to set on the project
     */
    static Map<String, String> original(Properties project, File classes, File testClasses) {
        Map<String, String> out = new LinkedHashMap<>();
        putIfAbsent(out, project, CLASSES, classes.getAbsolutePath());
        putIfAbsent(out, project, TEST_CLASSES, testClasses.getAbsolutePath());
        putIfAbsent(out, project, ARG_LINE, "");
        return out;
    }

    private static void putIfAbsent(Map<String, String> out, Properties project, String name, String value) {
        if (project.getProperty(name) == null) {
            out.put(name, value);
        }
    }

    /** A value as a mojo would see it: the command line's, else the project's. */
    private static String lookup(Properties project, Properties user, String name) {
        String value = user.getProperty(name);
        return value != null ? value : project.getProperty(name);
    }
}
