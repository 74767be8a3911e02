package shop;

import java.util.List;

/** Prices orders: final and overridable methods that call each other. */
public class PriceCalculator {
    private final Discount discount;

    public PriceCalculator(Discount discount) {
        this.discount = discount;
    }

    public long subtotal(List<Item> items) {
        long sum = 0;
        for (Item item : items) {
            sum += lineTotal(item);
        }
        return sum;
    }

    public long lineTotal(Item item) {
        return discount.apply(item);
    }

    public final long total(List<Item> items, Tier tier) {
        long subtotal = subtotal(items);
        return Currency.roundToFive(subtotal - tier.discountCents(subtotal));
    }

    public final String receipt(List<Item> items, Tier tier) {
        return Currency.format(total(items, tier));
    }
}
