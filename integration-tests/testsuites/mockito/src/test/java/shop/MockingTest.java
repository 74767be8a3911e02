package shop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/** Mocks and spies that both of Mockito's mock makers support. */
class MockingTest {
    private final Item pen = new Item("pen", 3, 150);
    private final Item book = new Item("book", 1, 1999);

    @Test
    void an_interface_mock_is_stubbed_and_its_default_method_runs_for_real_on_a_spy() {
        Discount discount = mock(Discount.class);
        when(discount.percent(any())).thenReturn(10L);
        assertEquals(10, discount.percent(pen));
        Discount real = spy(new Discount() {
            @Override
            public long percent(Item item) {
                return 20;
            }
        });
        assertEquals(360, real.apply(pen));
        verify(real).percent(pen);
    }

    @Test
    void an_abstract_class_mock_answers_and_records_calls() {
        Repository repository = mock(Repository.class);
        when(repository.find(anyString())).thenAnswer(call -> Optional.of(new Item(call.getArgument(0), 1, 100)));
        assertEquals("x", repository.find("x").orElseThrow().sku());
        verify(repository, times(1)).find("x");
        verify(repository, never()).log();
    }

    @Test
    void a_spy_of_a_class_runs_the_real_methods_it_does_not_stub() {
        PriceCalculator calculator = spy(new PriceCalculator(Discount.none()));
        when(calculator.lineTotal(book)).thenReturn(1000L);
        assertEquals(1000 + 450, calculator.subtotal(List.of(book, pen)));
        verify(calculator).lineTotal(pen);
    }

    @Test
    void collaborators_are_mocked_and_arguments_captured() {
        Repository repository = new Repository() {
            @Override
            public Optional<Item> find(String sku) {
                return sku.equals("pen") ? Optional.of(pen) : sku.equals("book") ? Optional.of(book) : Optional.empty();
            }
        };
        PriceCalculator calculator = mock(PriceCalculator.class);
        when(calculator.lineTotal(any())).thenReturn(7L);
        @SuppressWarnings("unchecked")
        Consumer<String> listener = mock(Consumer.class);
        OrderService service = new OrderService(repository, new PriceCalculator(item -> 50));
        String receipt = service.place(new ArrayList<>(List.of("pen", "book")), Tier.GOLD, listener);
        ArgumentCaptor<String> captor = ArgumentCaptor.forClass(String.class);
        verify(listener).accept(captor.capture());
        assertEquals(receipt, captor.getValue());
        assertEquals(7, calculator.lineTotal(pen));
        assertEquals(List.of("require pen", "require book"), repository.log());
        assertThrows(IllegalStateException.class, () -> service.place(new ArrayList<>(List.of("ink")), Tier.BASIC, s -> {}));
    }
}
