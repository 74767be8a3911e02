package isolated;

/** An interface with a default method, a static method and a lambda. */
public interface Greeter {
    String name();

    default String greet() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 2; i++) {
            out.append("hi ").append(name()).append(' ');
        }
        return out.toString();
    }

    static Greeter of(String name) {
        return () -> name;
    }
}
