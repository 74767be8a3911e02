/** Interface methods: abstract, default, static; a functional interface and a constant. */
@FunctionalInterface
public interface Interfaces {
    int CONSTANT = 7;
    String NAME = "interfaces";

    int apply(int x);

    default int twice(int x) {
        return apply(apply(x));
    }

    static Interfaces identity() {
        return x -> x;
    }

    static Interfaces plus(int k) {
        return x -> x + k + CONSTANT;
    }
}
