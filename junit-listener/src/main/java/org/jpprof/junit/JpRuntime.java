package org.jpprof.junit;

import java.util.ArrayList;
import java.util.List;
import org.jpprof.runtime.Tests;

/**
 * The runtime's {@link Tests}, when the test class path has it: the listeners are on the class
 * path of every test run that JP's build plugins set up, and do nothing in one that JP does not
 * profile.
 *
 * <p>Two listeners may report the same test on one thread: JUnit Platform's and a hooked
 * notifier's {@link JUnit4Listener} for a JUnit 4 test run by Vintage, or Surefire's listener and
 * a hooked notifier's. A begin of the test that is already the thread's innermost open one is
 * counted, not passed on, and so is its matching end: the test has one context, as with one
 * listener.
 */
final class JpRuntime {
    private JpRuntime() {}

    private static final boolean PRESENT = present();

    /** The thread's open tests, innermost last, with how many begins each has not yet ended. */
    private static final ThreadLocal<OpenTests> OPEN = new ThreadLocal<OpenTests>() {
        @Override
        protected OpenTests initialValue() {
            return new OpenTests();
        }
    };

    private static boolean present() {
        try {
            Class.forName("org.jpprof.runtime.Tests", false, JpRuntime.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** {@link Tests#begin}, when the runtime is there and the test is not the innermost open one. */
    static void begin(String testId) {
        if (PRESENT && OPEN.get().begin(testId)) Calls.begin(testId);
    }

    /** {@link Tests#end}, when the runtime is there and this ends the test's last open begin. */
    static void end(String testId) {
        if (PRESENT && OPEN.get().end(testId)) Calls.end(testId);
    }

    /** One thread's open tests. */
    static final class OpenTests {
        private final List<String> ids = new ArrayList<String>();
        private final List<Integer> begins = new ArrayList<Integer>();

        /** Records a begin; whether the runtime is to see it (the test is not already innermost). */
        boolean begin(String testId) {
            int innermost = ids.size() - 1;
            if (innermost >= 0 && ids.get(innermost).equals(testId)) {
                begins.set(innermost, begins.get(innermost) + 1);
                return false;
            }
            ids.add(testId);
            begins.add(1);
            return true;
        }

        /**
         * Records an end; whether the runtime is to see it: not while another begin of the
         * innermost test is open. Ending a test also ends those begun within it, as the runtime
         * does; an end of a test not open is passed on, for the runtime to ignore.
         */
        boolean end(String testId) {
            int at = ids.lastIndexOf(testId);
            if (at < 0) return true;
            if (at == ids.size() - 1 && begins.get(at) > 1) {
                begins.set(at, begins.get(at) - 1);
                return false;
            }
            ids.subList(at, ids.size()).clear();
            begins.subList(at, begins.size()).clear();
            return true;
        }
    }

    /** The calls themselves, in a class of their own: only loaded once the runtime was found. */
    private static final class Calls {
        static void begin(String testId) {
            Tests.begin(testId);
        }

        static void end(String testId) {
            Tests.end(testId);
        }
    }
}
