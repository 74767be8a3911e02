package svc;

import java.util.Arrays;
import java.util.List;

/** An interface with constants, default and static methods. */
public interface Greeter {
    String PREFIX = "hello ";
    List<String> POLITE = Arrays.asList("dear", "esteemed");

    String name(int id);

    default String greet(int id) {
        return PREFIX + decorate(name(id));
    }

    static String decorate(String name) {
        StringBuilder out = new StringBuilder();
        for (String word : POLITE) {
            if (name.length() > word.length()) {
                out.append(word).append(' ');
                break;
            }
        }
        return out.append(name).toString();
    }
}
