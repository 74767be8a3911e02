package org.jpprof.gradle;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.gradle.api.Action;
import org.gradle.api.tasks.testing.Test;
import org.gradle.api.tasks.testing.TestFrameworkOptions;
import org.gradle.api.tasks.testing.junit.JUnitOptions;
import org.gradle.api.tasks.testing.junitplatform.JUnitPlatformOptions;
import org.gradle.api.tasks.testing.testng.TestNGOptions;

/**
 * Makes {@code jpProfileTest} run the tests the way {@code test} runs them: the same test
 * classes and class path (JP's replaces it when the task graph is ready), test framework (and its options), includes and excludes, {@code filter { }}, JVM
 * arguments (and argument providers), system properties, environment, heap, forks
 * ({@code maxParallelForks}, {@code forkEvery}), fail-fast, Java launcher (toolchain) and working
 * directory. What was set on {@code jpProfileTest} itself wins. A build that wants no copy at all
 * enables JP on {@code test} itself ({@code test { jp { enabled = true } }}).
 */
final class TestSettings {
    private static final String JUNIT_PLATFORM =
            "org.gradle.api.tasks.testing.junitplatform.JUnitPlatformOptions";
    private static final String TESTNG = "org.gradle.api.tasks.testing.testng.TestNGOptions";
    private static final String JUNIT = "org.gradle.api.tasks.testing.junit.JUnitOptions";

    private TestSettings() {}

    /**
     * Copies {@code from}'s settings into {@code to}, once both are configured.
     *
     * @param from the project's {@code test} task
     * @param to {@code jpProfileTest}
     * @param projectDir the project's directory, {@code to}'s default working directory
     * @param inherited {@code to}'s environment when it was created, the build process's
     */
    static void copy(Test from, Test to, File projectDir, Map<String, Object> inherited) {
        to.setTestClassesDirs(from.getTestClassesDirs());
        to.setClasspath(from.getClasspath());
        copyFramework(from, to);
        if (to.getIncludes().isEmpty()) {
            to.setIncludes(from.getIncludes());
        }
        if (to.getExcludes().isEmpty()) {
            to.setExcludes(from.getExcludes());
        }
        if (to.getFilter().getIncludePatterns().isEmpty()) {
            to.getFilter().setIncludePatterns(array(from.getFilter().getIncludePatterns()));
        }
        if (!from.getFilter().isFailOnNoMatchingTests()) {
            to.getFilter().setFailOnNoMatchingTests(false);
        }
        if (!from.isScanForTestClasses()) {
            to.setScanForTestClasses(false);
        }
        if (to.getForkEvery() == 0) {
            Compat.setForkEvery(to, from.getForkEvery());
        }
        Compat.copyNewerTestSettings(from, to);
        List<String> jvmArgs = new ArrayList<>(from.getJvmArgs());
        jvmArgs.addAll(to.getJvmArgs());
        to.setJvmArgs(jvmArgs);
        for (Map.Entry<String, Object> property : from.getSystemProperties().entrySet()) {
            if (!to.getSystemProperties().containsKey(property.getKey())) {
                to.systemProperty(property.getKey(), property.getValue());
            }
        }
        // Both start from this process's environment; copy what the build changed in `test`,
        // unless it was changed in `to` too. (Compared with the map Gradle gave `to`, not with
        // System.getenv: the configuration cache would take each variable read that way for an
        // input of the build, and any change of any of them would throw the cache away.)
        for (Map.Entry<String, Object> variable : from.getEnvironment().entrySet()) {
            Object original = inherited.get(variable.getKey());
            if (!Objects.equals(variable.getValue(), original)
                    && Objects.equals(to.getEnvironment().get(variable.getKey()), original)) {
                to.environment(variable.getKey(), variable.getValue());
            }
        }
        if (to.getMinHeapSize() == null) {
            to.setMinHeapSize(from.getMinHeapSize());
        }
        if (to.getMaxHeapSize() == null) {
            to.setMaxHeapSize(from.getMaxHeapSize());
        }
        if (to.getMaxParallelForks() == 1) {
            to.setMaxParallelForks(from.getMaxParallelForks());
        }
        if (!from.getEnableAssertions()) {
            to.setEnableAssertions(false);
        }
        if (from.getIgnoreFailures()) {
            to.setIgnoreFailures(true);
        }
        if (to.getWorkingDir().equals(projectDir)) {
            to.setWorkingDir(from.getWorkingDir());
        }
    }

    private static void copyFramework(Test from, Test to) {
        TestFrameworkOptions options = from.getOptions();
        if (isA(options, JUNIT_PLATFORM)) {
            JUnitPlatform.copy(options, to);
        } else if (isA(options, TESTNG)) {
            TestNG.copy(options, to);
        } else if (isA(options, JUNIT)) {
            JUnit4.copy(options, to);
        }
    }

    /** Whether {@code object}'s class, or a superclass (Gradle decorates classes), is {@code name}. */
    private static boolean isA(Object object, String name) {
        for (Class<?> type = object.getClass(); type != null; type = type.getSuperclass()) {
            if (type.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static String[] array(Iterable<String> strings) {
        List<String> list = new ArrayList<>();
        for (String string : strings) {
            list.add(string);
        }
        return list.toArray(new String[0]);
    }

    /** JUnit 4. */
    private static final class JUnit4 {
        private JUnit4() {}

        static void copy(TestFrameworkOptions options, Test to) {
            final JUnitOptions from = (JUnitOptions) options;
            to.useJUnit(
                    new Action<JUnitOptions>() {
                        @Override
                        public void execute(JUnitOptions junit) {
                            junit.includeCategories(array(from.getIncludeCategories()));
                            junit.excludeCategories(array(from.getExcludeCategories()));
                        }
                    });
        }
    }

    /** TestNG. */
    private static final class TestNG {
        private TestNG() {}

        static void copy(TestFrameworkOptions options, Test to) {
            final TestNGOptions from = (TestNGOptions) options;
            to.useTestNG(
                    new Action<TestFrameworkOptions>() {
                        @Override
                        public void execute(TestFrameworkOptions testng) {
                            TestNGOptions into = (TestNGOptions) testng;
                            into.includeGroups(array(from.getIncludeGroups()));
                            into.excludeGroups(array(from.getExcludeGroups()));
                        }
                    });
        }
    }

    /** The JUnit Platform (JUnit 5): Gradle 4.6 and later, so in a class of its own. */
    private static final class JUnitPlatform {
        private JUnitPlatform() {}

        static void copy(TestFrameworkOptions options, Test to) {
            final JUnitPlatformOptions from = (JUnitPlatformOptions) options;
            to.useJUnitPlatform(
                    new Action<JUnitPlatformOptions>() {
                        @Override
                        public void execute(JUnitPlatformOptions platform) {
                            platform.includeEngines(array(from.getIncludeEngines()));
                            platform.excludeEngines(array(from.getExcludeEngines()));
                            platform.includeTags(array(from.getIncludeTags()));
                            platform.excludeTags(array(from.getExcludeTags()));
                        }
                    });
        }
    }
}
