package shop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.mockStatic;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.mockito.MockedStatic;

/** What only the inline mock maker can do: final methods, static methods, records. */
@Tag("inline")
class InlineMockingTest {
    private final List<Item> items = List.of(new Item("pen", 3, 150), new Item("book", 1, 1999));

    @Test
    void a_final_method_is_stubbed() {
        PriceCalculator calculator = mock(PriceCalculator.class);
        when(calculator.total(any(), any())).thenReturn(42L);
        assertEquals(42, calculator.total(items, Tier.GOLD));
    }

    @Test
    void a_static_method_is_mocked_within_its_scope_only() {
        PriceCalculator calculator = new PriceCalculator(Discount.none());
        try (MockedStatic<Currency> currency = mockStatic(Currency.class)) {
            currency.when(() -> Currency.roundToFive(anyLong())).thenReturn(5L);
            currency.when(() -> Currency.format(5L)).thenReturn("five");
            assertEquals("five", calculator.receipt(items, Tier.BASIC));
            currency.verify(() -> Currency.roundToFive(2449L));
        }
        assertEquals("24.50", calculator.receipt(items, Tier.BASIC));
    }

    @Test
    void a_record_is_mocked_and_a_final_method_of_a_spy_is_stubbed() {
        Item item = mock(Item.class);
        when(item.totalCents()).thenReturn(1L);
        assertEquals(1, item.totalCents());
        PriceCalculator calculator = spy(new PriceCalculator(Discount.none()));
        doReturn(7L).when(calculator).total(any(), any());
        assertEquals("0.07", calculator.receipt(items, Tier.GOLD));
        verify(calculator).total(items, Tier.GOLD);
    }
}
