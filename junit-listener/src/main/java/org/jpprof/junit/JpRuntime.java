package org.jpprof.junit;

import org.jpprof.runtime.Tests;

/**
 * The runtime's {@link Tests}, when the test class path has it: the listeners are on the class
 * path of every test run that JP's build plugins set up, and do nothing in one that JP does not
 * profile.
 */
final class JpRuntime {
    private JpRuntime() {}

    private static final boolean PRESENT = present();

    private static boolean present() {
        try {
            Class.forName("org.jpprof.runtime.Tests", false, JpRuntime.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** {@link Tests#begin}, when the runtime is there. */
    static void begin(String testId) {
        if (PRESENT) Calls.begin(testId);
    }

    /** {@link Tests#end}, when the runtime is there. */
    static void end(String testId) {
        if (PRESENT) Calls.end(testId);
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
