package shop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The production classes without mocks: proxies, lambdas, anonymous classes, sealed types. */
class PlainJavaTest {
    private final List<Item> items = List.of(new Item("pen", 3, 150), new Item("book", 1, 1999));

    @Test
    void a_dynamic_proxy_implements_the_interface_and_reaches_its_default_method() {
        InvocationHandler handler = (proxy, method, args) -> method.isDefault()
                ? InvocationHandler.invokeDefault(proxy, method, args)
                : Long.valueOf(50);
        Discount discount = (Discount) Proxy.newProxyInstance(
                Discount.class.getClassLoader(), new Class<?>[] {Discount.class}, handler);
        assertEquals(225, discount.apply(items.get(0)));
    }

    @Test
    void tiers_prices_and_receipts_add_up() {
        PriceCalculator calculator = new PriceCalculator(item -> item.quantity() > 1 ? 10 : 0);
        // pen: 450 less 10% = 405; book: 1999; subtotal 2404, then the tier's discount, rounded to 5.
        assertEquals("24.05", calculator.receipt(items, Tier.BASIC));
        assertEquals("21.65", calculator.receipt(items, Tier.GOLD));
        assertEquals("19.00", calculator.receipt(items, Tier.PLATINUM));
    }

    @Test
    void sealed_shapes_and_records_behave() {
        assertEquals("box 24", Shape.describe(new Shape.Box(2, 3, 4)));
        assertEquals("tube 12", Shape.describe(new Shape.Tube(1, 4)));
        assertEquals(new Item("pen", 3, 150), items.get(0));
        assertThrows(IllegalArgumentException.class, () -> new Item("x", 0, 1));
    }

    @Test
    void orders_sort_by_value_with_an_anonymous_comparator() {
        OrderService service = new OrderService(null, null);
        assertEquals(List.of("book", "pen"), service.skusByValue(items));
    }
}
