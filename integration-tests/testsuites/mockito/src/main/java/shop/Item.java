package shop;

/** A line of an order. */
public record Item(String sku, int quantity, long unitCents) {
    public Item {
        if (quantity <= 0) throw new IllegalArgumentException("quantity must be positive: " + quantity);
    }

    public long totalCents() {
        return quantity * unitCents;
    }
}
