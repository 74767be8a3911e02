package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Thread ids: the field behind {@code Thread.getId()}, whatever a subclass says. */
class ThreadIdsTest {
    @Test
    void ids_are_the_threads_own_and_differ_between_threads() throws InterruptedException {
        assertTrue(ThreadIds.AVAILABLE);
        Thread self = Thread.currentThread();
        assertEquals(idOf(self), ThreadIds.of(self));
        AtomicLong other = new AtomicLong();
        Thread thread = new Thread(() -> other.set(ThreadIds.of(Thread.currentThread())));
        thread.start();
        thread.join();
        assertEquals(idOf(thread), other.get());
        assertNotEquals(ThreadIds.of(self), other.get());
    }

    @Test
    void an_overridden_getId_changes_nothing() {
        Thread liar = new Thread() {
            @Override
            @SuppressWarnings("deprecation") // getId, final only as threadId in Java 19
            public long getId() {
                return 42;
            }
        };
        assertNotEquals(42, ThreadIds.of(liar));
        assertEquals(ThreadIds.of(liar), ThreadIds.of(liar));
    }

    @Test
    void java_versions_are_read_old_style_and_new() {
        assertEquals(8, ThreadIds.javaVersion("1.8"));
        assertEquals(17, ThreadIds.javaVersion("17"));
        assertEquals(25, ThreadIds.javaVersion("25.0.1"));
        assertEquals(0, ThreadIds.javaVersion("unknown"));
    }

    @SuppressWarnings("deprecation") // getId: the only id on Java 8
    private static long idOf(Thread thread) {
        return thread.getId();
    }
}
