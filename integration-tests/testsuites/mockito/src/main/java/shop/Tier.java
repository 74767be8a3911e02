package shop;

/** Customer tiers, each with its own discount rule (an enum with bodies). */
public enum Tier {
    BASIC {
        @Override
        long discountCents(long cents) {
            return 0;
        }
    },
    GOLD {
        @Override
        long discountCents(long cents) {
            return cents / 10;
        }
    },
    PLATINUM {
        @Override
        long discountCents(long cents) {
            return cents / 5 + GOLD.discountCents(cents) / 10;
        }
    };

    abstract long discountCents(long cents);
}
