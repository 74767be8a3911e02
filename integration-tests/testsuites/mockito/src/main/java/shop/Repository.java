package shop;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Storage of items: an abstract class with a template method. */
public abstract class Repository {
    private final List<String> log = new ArrayList<>();

    public abstract Optional<Item> find(String sku);

    public final Item require(String sku) {
        log.add("require " + sku);
        return find(sku).orElseThrow(() -> new IllegalStateException("unknown sku " + sku));
    }

    public List<String> log() {
        return log;
    }
}
