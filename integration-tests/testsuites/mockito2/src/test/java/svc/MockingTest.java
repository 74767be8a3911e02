package svc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/** Mocks, spies, captors and answers of Mockito 2 that both mock makers support. */
class MockingTest {
    @Test
    void a_mocked_repository_answers_as_stubbed() {
        Repo repo = mock(Repo.class);
        when(repo.find(7)).thenReturn("linus");
        Service service = new Service(repo);
        assertEquals("hello dear linus", service.greet(7));
        verify(repo).find(7);
    }

    @Test
    void a_mocked_interface_keeps_its_default_method_unless_stubbed() {
        Greeter greeter = mock(Greeter.class);
        when(greeter.name(anyInt())).thenReturn("barbara");
        when(greeter.greet(2)).thenReturn("stubbed");
        assertEquals("stubbed", greeter.greet(2));
        assertEquals("barbara", greeter.name(5));
    }

    @Test
    void a_spy_runs_the_real_code_but_what_is_stubbed() {
        Service service = spy(new Service(new Repo()));
        doReturn("margaret").when(service).name(2);
        assertEquals("hello ada\nhello dear margaret\n", service.welcomeAll());
        verify(service, times(2)).greet(anyInt());
    }

    @Test
    void stubbed_exceptions_are_thrown_through_instrumented_callers() {
        Repo repo = mock(Repo.class);
        doThrow(new IllegalStateException("down")).when(repo).save(eq(3), eq("x"));
        assertThrows(IllegalStateException.class, () -> repo.save(3, "x"));
        when(repo.find(9)).thenThrow(new IllegalArgumentException("none"));
        assertThrows(IllegalArgumentException.class, () -> new Service(repo).greet(9));
    }

    @Test
    void captors_see_the_arguments_of_instrumented_callers() {
        Repo repo = mock(Repo.class);
        new Service(repo) {
            void store() {
                repo.save(4, "alan");
            }
        }.store();
        ArgumentCaptor<String> name = ArgumentCaptor.forClass(String.class);
        verify(repo).save(eq(4), name.capture());
        assertEquals("alan", name.getValue());
    }

    @Test
    void answers_call_back_into_instrumented_code() {
        Repo repo = mock(Repo.class);
        when(repo.find(anyInt())).thenAnswer(call -> Greeter.decorate("number" + call.getArgument(0)));
        assertEquals("hello dear dear number12", new Service(repo).greet(12));
    }

    @Test
    void an_abstract_class_is_mocked_with_its_final_template_running() {
        Template template = mock(Template.class);
        assertEquals(0, template.score("a", "b"));
    }
}
