/** Enums with fields, constructors, constant bodies and an interface; a switch over an enum. */
public enum Enums implements java.util.function.IntSupplier {
    PLAIN(1),
    WITH_BODY(2) {
        @Override
        int twice() {
            return super.twice() + 1;
        }
    },
    ABSTRACTLY_DIFFERENT(3) {
        @Override
        public int getAsInt() {
            return -value;
        }
    };

    final int value;

    Enums(int value) {
        this.value = value;
    }

    int twice() {
        return value * 2;
    }

    @Override
    public int getAsInt() {
        return value;
    }

    static String describe(Enums e) {
        switch (e) { // switch on ordinal through a synthetic $SwitchMap
            case PLAIN:
                return "plain";
            case WITH_BODY:
                return "body";
            default:
                return e.name();
        }
    }

    static Enums parse(String s) {
        return valueOf(s);
    }

    static int count() {
        return values().length;
    }
}
