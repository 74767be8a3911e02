package org.jpprof.junit;

import java.util.Arrays;
import org.testng.IConfigurationListener;
import org.testng.IInvokedMethod;
import org.testng.IInvokedMethodListener;
import org.testng.ISuite;
import org.testng.ISuiteListener;
import org.testng.ITestNGMethod;
import org.testng.ITestResult;

/**
 * Gives each TestNG test method invocation, and each test class's class-level configuration, its
 * own context in the profile. TestNG loads it by itself from META-INF/services when the jar is on
 * the test class path, and calls it on the thread that runs each method, so that tests run in
 * parallel are told apart.
 *
 * <p>A test's context opens before its {@code @BeforeMethod} methods, which TestNG 7.3 and later
 * announce with the test they run for ({@link #beforeConfiguration(ITestResult, ITestNGMethod)});
 * with an older TestNG it opens at the test method. It stays open through the test's
 * {@code @AfterMethod} methods, whose number no listener is told, and closes when the thread goes
 * on to anything else. A test method that takes parameters (a data provider's row) runs in a
 * context of its own below that, {@code class#method(Types) > values}: its set-up and tear-down
 * count in the method's context, the invocation's own work in the invocation's.
 */
public final class TestNGListener implements IInvokedMethodListener, IConfigurationListener, ISuiteListener {
    /** The test whose context is open on this thread, if any. */
    private static final ThreadLocal<OpenTest> OPEN = new ThreadLocal<OpenTest>();

    /** A test's context left open for its tear-down; {@code ran} once the test method itself has run. */
    private static final class OpenTest {
        final String id;
        boolean ran;

        OpenTest(String id) {
            this.id = id;
        }
    }

    /** TestNG 7.3 and later: {@code test} is the test a {@code @BeforeMethod} or {@code @AfterMethod} runs for. */
    @Override
    public void beforeConfiguration(ITestResult configuration, ITestNGMethod test) {
        if (test != null && configuration.getMethod().isBeforeMethodConfiguration()) {
            enterTest(testId(test));
        }
    }

    @Override
    public void beforeInvocation(IInvokedMethod invoked, ITestResult result) {
        ITestNGMethod method = invoked.getTestMethod();
        if (invoked.isTestMethod()) {
            enterTest(testId(method));
            String invocation = invocationId(method, result);
            if (invocation != null) JpRuntime.begin(invocation);
        } else if (method.isBeforeClassConfiguration() || method.isAfterClassConfiguration()) {
            leaveTest();
            JpRuntime.begin(className(method));
        } else if (method.isBeforeMethodConfiguration()) {
            OpenTest open = OPEN.get();
            // Without the test named beforehand (TestNG before 7.3), set-up counts under the class.
            if (open == null || open.ran) {
                leaveTest();
                JpRuntime.begin(className(method));
            }
        } else if (!method.isAfterMethodConfiguration()) {
            leaveTest();
        }
    }

    @Override
    public void afterInvocation(IInvokedMethod invoked, ITestResult result) {
        ITestNGMethod method = invoked.getTestMethod();
        if (invoked.isTestMethod()) {
            String invocation = invocationId(method, result);
            if (invocation != null) JpRuntime.end(invocation);
            OpenTest open = OPEN.get();
            if (open != null) open.ran = true;
        } else if (method.isBeforeClassConfiguration() || method.isAfterClassConfiguration()
                || (method.isBeforeMethodConfiguration() && OPEN.get() == null)) {
            JpRuntime.end(className(method));
        }
    }

    /** The suite's end, on the thread that ran it: the last test of a run without threads closes here. */
    @Override
    public void onFinish(ISuite suite) {
        leaveTest();
    }

    @Override
    public void onStart(ISuite suite) {}

    // Abstract in TestNG 6's IConfigurationListener, so that the listener loads there too.

    @Override
    public void onConfigurationSuccess(ITestResult configuration) {}

    @Override
    public void onConfigurationFailure(ITestResult configuration) {}

    @Override
    public void onConfigurationSkip(ITestResult configuration) {}

    /** Opens {@code id}'s context on this thread, unless its set-up already did. */
    private static void enterTest(String id) {
        OpenTest open = OPEN.get();
        if (open != null && open.id.equals(id) && !open.ran) return;
        leaveTest();
        JpRuntime.begin(id);
        OPEN.set(new OpenTest(id));
    }

    /** Closes the test context open on this thread, after its tear-down. */
    private static void leaveTest() {
        OpenTest open = OPEN.get();
        if (open == null) return;
        OPEN.remove();
        JpRuntime.end(open.id);
    }

    private static String testId(ITestNGMethod method) {
        return MethodIds.of(className(method), method.getConstructorOrMethod().getMethod());
    }

    /** {@code testId > values} for a test method run with parameters, null for one without. */
    private static String invocationId(ITestNGMethod method, ITestResult result) {
        Object[] parameters = result.getParameters();
        if (parameters == null || parameters.length == 0) return null;
        StringBuilder id = new StringBuilder(testId(method)).append(" > ");
        for (int i = 0; i < parameters.length; i++) {
            if (i > 0) id.append(", ");
            id.append(display(parameters[i]));
        }
        return id.toString();
    }

    /** A parameter as JUnit Jupiter displays one: arrays by their elements. */
    private static String display(Object value) {
        String text = Arrays.deepToString(new Object[] {value});
        return text.substring(1, text.length() - 1);
    }

    /** The test class the method runs for (a subclass of its declaring class, for inherited methods). */
    private static String className(ITestNGMethod method) {
        return method.getTestClass() != null ? method.getTestClass().getRealClass().getName() : method.getRealClass().getName();
    }
}
