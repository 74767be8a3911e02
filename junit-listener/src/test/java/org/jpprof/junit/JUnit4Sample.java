package org.jpprof.junit;

import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;

/** Run by {@link ListenerTest} through the Launcher and the Vintage engine, and through JUnitCore. */
public class JUnit4Sample {
    @BeforeClass
    public static void beforeClass() {
        Work.run("beforeClass");
    }

    @Before
    public void before() {
        Work.run("before");
    }

    @Test
    public void works() {
        Work.run("works");
    }
}
