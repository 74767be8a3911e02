package shop;

import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/** Places orders: collaborators, lambdas, method references and callbacks. */
public class OrderService {
    private final Repository repository;
    private final PriceCalculator calculator;

    public OrderService(Repository repository, PriceCalculator calculator) {
        this.repository = repository;
        this.calculator = calculator;
    }

    public String place(List<String> skus, Tier tier, Consumer<String> listener) {
        List<Item> items = skus.stream().map(repository::require).collect(Collectors.toList());
        items.sort(Comparator.comparingLong(Item::totalCents).reversed());
        String receipt = calculator.receipt(items, tier);
        listener.accept(receipt);
        return receipt;
    }

    public List<String> skusByValue(List<Item> items) {
        return items.stream()
                .sorted(new Comparator<Item>() {
                    @Override
                    public int compare(Item a, Item b) {
                        return Long.compare(b.totalCents(), a.totalCents());
                    }
                })
                .map(Item::sku)
                .collect(Collectors.toList());
    }
}
