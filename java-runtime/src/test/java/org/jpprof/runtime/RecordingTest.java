package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** JP.start and JP.stop, driven the way instrumented code drives the runtime. */
class RecordingTest {
    @AfterEach
    void recordAgain() {
        JP.start();
    }

    @Test
    void a_window_holds_the_activations_that_began_in_it_whole() {
        MID[] mids = MID.table("precise.t/W.main.()V.4.middle.()V.6.late.()V.2.get.()I.2");
        RC rc = RC.current();
        IC before = rc.top;
        JP.stop();
        assertFalse(JP.isRecording());
        // main began while stopped: not counted, and the thread's current context stays.
        assertNull(rc.enter(mids[0]));
        assertSame(before, rc.top);
        JP.start();
        IC middle = rc.enter(mids[1]);
        assertSame(before, middle.parent);
        assertEquals(1, RC.leaf(mids[3], 2).calls);
        JP.stop();
        // After the stop, middle still runs: its bytecodes count; what it calls does not.
        assertNull(rc.enter(mids[2]));
        assertNull(RC.leaf(mids[3], 2));
        rc.exit(middle, 6);
        assertSame(before, rc.top);
        assertEquals(1, middle.calls);
        assertEquals(6, middle.bytecodes);
        assertEquals(1, middle.children().length);
        assertEquals(2, middle.children()[0].bytecodes);
    }

    @Test
    void tests_begun_while_stopped_make_no_context() {
        MID test = MID.test("t.W#stopped()");
        RC rc = RC.current();
        IC before = rc.top;
        JP.stop();
        rc.beginTest(test);
        assertSame(before, rc.top);
        rc.endTest(test);
        assertSame(before, rc.top);
    }

    @Test
    void jp_start_paused_begins_stopped_and_anything_else_records() {
        assertFalse(Recording.initially("paused"));
        assertTrue(Recording.initially("recording"));
        assertTrue(Recording.initially("later"));
    }

    @Test
    void the_mbean_drives_the_same_switch() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(Control.NAME);
        server.registerMBean(new Control(), name);
        try {
            server.invoke(name, "stop", new Object[0], new String[0]);
            assertFalse(JP.isRecording());
            assertEquals(Boolean.FALSE, server.getAttribute(name, "Recording"));
            server.invoke(name, "start", new Object[0], new String[0]);
            assertTrue(JP.isRecording());
        } finally {
            server.unregisterMBean(name);
        }
    }
}
