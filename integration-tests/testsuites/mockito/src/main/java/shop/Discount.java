package shop;

/** A discount policy: an interface with a default and a static method. */
public interface Discount {
    long percent(Item item);

    default long apply(Item item) {
        return item.totalCents() - item.totalCents() * percent(item) / 100;
    }

    static Discount none() {
        return item -> 0;
    }
}
