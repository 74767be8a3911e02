package org.jpprof.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.jpprof.runtime.JP;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.notification.RunNotifier;
import org.testng.TestNG;
import org.testng.xml.XmlSuite;

/**
 * The listeners, run the way build tools run them: the Launcher finds the Platform listener by
 * itself (META-INF/services), and so does TestNG; JUnit 4's runner is given the RunListener. The sample tests call
 * what instrumented code calls, and the test JVM's profile shows under which test it counted.
 */
class ListenerTest {
    private static final String JUPITER = "org.jpprof.junit.JupiterSample";
    private static final String JUNIT4 = "org.jpprof.junit.JUnit4Sample";
    private static final String TESTNG = "org.jpprof.junit.TestNGSample";

    @Test
    void jupiter_tests_invocations_and_set_up_get_their_contexts() throws IOException {
        LauncherFactory.create().execute(
                LauncherDiscoveryRequestBuilder.request().selectors(selectClass(JupiterSample.class)).build());
        Map<String, Long> calls = profile();
        assertEquals(1, calls.get("[test] " + JUPITER));
        assertEquals(1, calls.get("[test] " + JUPITER + " / sample.Work.beforeAll()V"));
        assertEquals(1, calls.get("[test] " + JUPITER + " / sample.Work.afterAll()V"));
        String plain = "[test] " + JUPITER + "#plain()";
        assertEquals(1, calls.get(plain + " / sample.Work.setUp()V"));
        assertEquals(1, calls.get(plain + " / sample.Work.plain()V"));
        String parses = "[test] " + JUPITER + "#parses(String)";
        assertEquals(1, calls.get(parses));
        assertEquals(1, calls.get(parses + " > [1] a / sample.Work.setUp()V"));
        assertEquals(1, calls.get(parses + " > [1] a / sample.Work.parses()V"));
        assertEquals(1, calls.get(parses + " > [2] b,c / sample.Work.parses()V"));
        assertEquals(1, calls.get("[test] " + JUPITER + "#dynamic() > first / sample.Work.dynamic()V"));
        assertFalse(calls.containsKey("sample.Work.setUp()V"), "no set-up outside a test");
    }

    @Test
    void junit4_tests_run_by_the_vintage_engine_get_their_contexts() throws IOException {
        Map<String, Long> before = profile();
        LauncherFactory.create().execute(
                LauncherDiscoveryRequestBuilder.request().selectors(selectClass(JUnit4Sample.class)).build());
        Map<String, Long> calls = profile();
        for (String path : new String[] {
            "[test] " + JUNIT4 + " / sample.Work.beforeClass()V",
            "[test] " + JUNIT4 + "#works() / sample.Work.before()V",
            "[test] " + JUNIT4 + "#works() / sample.Work.works()V"
        }) {
            assertEquals(before.getOrDefault(path, 0L) + 1, calls.get(path), path);
        }
    }

    @Test
    void junit4_tests_run_with_the_run_listener_get_their_contexts() throws IOException {
        Map<String, Long> before = profile();
        JUnitCore core = new JUnitCore();
        core.addListener(new JUnit4Listener());
        assertTrue(core.run(JUnit4Sample.class).wasSuccessful());
        Map<String, Long> calls = profile();
        String works = "[test] " + JUNIT4 + "#works()";
        assertEquals(before.getOrDefault(works, 0L) + 1, calls.get(works));
        assertEquals(before.getOrDefault(works + " / sample.Work.before()V", 0L) + 1,
                calls.get(works + " / sample.Work.before()V"));
        String beforeClass = "[test] " + JUNIT4 + " / sample.Work.beforeClass()V";
        assertEquals(before.getOrDefault(beforeClass, 0L) + 1, calls.get(beforeClass));
    }

    @Test
    void junit4_tests_of_a_hooked_notifier_get_their_contexts() throws IOException {
        Map<String, Long> before = profile();
        RunNotifier notifier = new RunNotifier();
        JUnit4Hook.attach(notifier);
        Request.aClass(JUnit4Sample.class).getRunner().run(notifier);
        Map<String, Long> calls = profile();
        String works = "[test] " + JUNIT4 + "#works()";
        assertEquals(before.getOrDefault(works, 0L) + 1, calls.get(works));
        assertEquals(before.getOrDefault(works + " / sample.Work.before()V", 0L) + 1,
                calls.get(works + " / sample.Work.before()V"));
    }

    /** Vintage and a hooked notifier, or Surefire's listener and a hooked notifier, both report. */
    @Test
    void a_junit4_test_that_two_listeners_report_gets_one_context() throws IOException {
        Map<String, Long> before = profile();
        JUnitCore core = new JUnitCore();
        core.addListener(new JUnit4Listener());
        core.addListener(new JUnit4Listener());
        assertTrue(core.run(JUnit4Sample.class).wasSuccessful());
        Map<String, Long> calls = profile();
        String works = "[test] " + JUNIT4 + "#works()";
        assertEquals(before.getOrDefault(works, 0L) + 1, calls.get(works));
        String testClass = "[test] " + JUNIT4;
        assertEquals(before.getOrDefault(testClass, 0L) + 1, calls.get(testClass));
        String beforeClass = testClass + " / sample.Work.beforeClass()V";
        assertEquals(before.getOrDefault(beforeClass, 0L) + 1, calls.get(beforeClass));
    }

    @Test
    void testng_invocations_with_their_set_up_and_tear_down_get_their_contexts() throws IOException {
        Map<String, Long> before = profile();
        runTestNG(XmlSuite.ParallelMode.NONE);
        Map<String, Long> calls = profile();
        for (String test : new String[] {"plain", "other"}) {
            String context = "[test] " + TESTNG + "#" + test + "()";
            assertEquals(1, added(before, calls, context));
            assertEquals(1, added(before, calls, context + " / sample.Work.setUp()V"));
            assertEquals(1, added(before, calls, context + " / sample.Work." + test + "()V"));
            assertEquals(1, added(before, calls, context + " / sample.Work.tearDown()V"));
        }
        String parses = "[test] " + TESTNG + "#parses(String, int)";
        assertEquals(2, added(before, calls, parses));
        assertEquals(2, added(before, calls, parses + " / sample.Work.setUp()V"));
        assertEquals(2, added(before, calls, parses + " / sample.Work.tearDown()V"));
        assertEquals(1, added(before, calls, parses + " > a, 1 / sample.Work.parses()V"));
        assertEquals(1, added(before, calls, parses + " > b,c, 2 / sample.Work.parses()V"));
        assertEquals(1, added(before, calls, "[test] " + TESTNG + " / sample.Work.beforeClass()V"));
        assertEquals(0, added(before, calls, "sample.Work.setUp()V"), "no set-up outside a test");
        assertEquals(0, added(before, calls, "sample.Work.tearDown()V"), "no tear-down outside a test");
    }

    /** With parallel="methods", each test's context is begun and ended on the thread that runs it. */
    @Test
    void testng_tests_run_in_parallel_are_told_apart() throws IOException {
        Map<String, Long> before = profile();
        runTestNG(XmlSuite.ParallelMode.METHODS);
        Map<String, Long> calls = profile();
        for (String test : new String[] {"plain", "other"}) {
            String context = "[test] " + TESTNG + "#" + test + "()";
            assertEquals(1, added(before, calls, context + " / sample.Work.setUp()V"));
            assertEquals(1, added(before, calls, context + " / sample.Work." + test + "()V"));
            assertEquals(1, added(before, calls, context + " / sample.Work.tearDown()V"));
        }
        String parses = "[test] " + TESTNG + "#parses(String, int)";
        assertEquals(1, added(before, calls, parses + " > a, 1 / sample.Work.parses()V"));
        assertEquals(1, added(before, calls, parses + " > b,c, 2 / sample.Work.parses()V"));
        assertEquals(0, added(before, calls, "sample.Work.setUp()V"), "no set-up outside a test");
    }

    /** TestNG as a build tool's provider runs it: nothing registers JP's listener. */
    private static void runTestNG(XmlSuite.ParallelMode parallel) {
        TestNG testng = new TestNG(false);
        testng.setTestClasses(new Class<?>[] {TestNGSample.class});
        testng.setParallel(parallel);
        testng.setThreadCount(4);
        testng.setOutputDirectory("target/testng-output");
        testng.run();
        assertEquals(0, testng.getStatus(), "the TestNG sample passes");
    }

    /** What {@code path} counted from {@code before} to {@code after} (the profiles of one JVM add up). */
    private static long added(Map<String, Long> before, Map<String, Long> after, String path) {
        return after.getOrDefault(path, 0L) - before.getOrDefault(path, 0L);
    }

    /** Loaded without the runtime, the listeners' calls to it do nothing and do not throw. */
    @Test
    void without_the_runtime_the_listeners_do_nothing() throws Exception {
        URL classes = JpRuntime.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes}, null)) {
            Class<?> runtime = Class.forName(JpRuntime.class.getName(), true, loader);
            Method begin = runtime.getDeclaredMethod("begin", String.class);
            Method end = runtime.getDeclaredMethod("end", String.class);
            begin.setAccessible(true);
            end.setAccessible(true);
            begin.invoke(null, "a.B#c()");
            end.invoke(null, "a.B#c()");
        }
    }

    /**
     * The test JVM's profile now: calls by path of frame names ({@code a / b}), top-level first,
     * merged over thread groups (a path may be in several).
     */
    private static Map<String, Long> profile() throws IOException {
        Path written = JP.writeProfile();
        assertNotNull(written, "the default agent writes the test JVM's profile");
        Map<String, String> frames = new HashMap<>();
        Map<String, String> paths = new HashMap<>();
        Map<String, Long> calls = new HashMap<>();
        for (String line : Files.readAllLines(written, StandardCharsets.UTF_8)) {
            String[] fields = line.split(" ", 6);
            if (fields[0].equals("frame")) {
                frames.put(fields[1], line.substring(("frame " + fields[1] + " ").length()));
            } else if (fields[0].equals("node")) {
                String frame = frames.get(fields[3]);
                String path = fields[2].equals("0") ? frame : paths.get(fields[2]) + " / " + frame;
                paths.put(fields[1], path);
                calls.merge(path, Long.parseLong(fields[4]), Long::sum);
            }
        }
        return calls;
    }
}
