package svc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What only Mockito 2's inline mock maker can do: final classes and final methods. */
@Tag("inline")
class InlineMockingTest {
    @Test
    void a_final_method_is_stubbed() {
        Repo repo = mock(Repo.class);
        when(repo.count()).thenReturn(1);
        when(repo.find(1)).thenReturn("edsger");
        assertEquals("hello dear edsger\n", new Service(repo).welcomeAll());
        verify(repo).find(1);
    }

    @Test
    void a_final_class_is_mocked() {
        Clock clock = mock(Clock.class);
        when(clock.now()).thenReturn(42L);
        assertEquals(42L, clock.now());
    }

    @Test
    void a_spy_of_a_final_class_runs_its_real_methods() {
        Clock clock = spy(new Clock());
        when(clock.now()).thenReturn(7L);
        assertEquals("tick@7", clock.stamp("tick"));
    }
}
