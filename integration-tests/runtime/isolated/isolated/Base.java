package isolated;

/** Its initializer runs Work's methods before Work's own initializer has started. */
public abstract class Base {
    static final Base EARLY = Work.early();
    final int base;

    Base(int base) {
        this.base = base;
    }

    abstract int size();
}
