package svc;

/** A template method calling an abstract hook. */
public abstract class Template {
    public final int score(String... words) {
        int total = 0;
        for (String word : words) {
            total += weight(word);
        }
        return total;
    }

    protected abstract int weight(String word);
}
