package org.jpprof.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** Finding a constant of one of the requests' enums by the name users write in settings. */
final class Names {
    private Names() {}

    /**
     * The constant whose name is {@code value}, ignoring case and surrounding blanks.
     *
     * @param setting the setting's name, for the message
     * @param value what the user wrote
     * @param constants the enum's constants
     * @param name a constant's name as users write it
     * @return the constant
     * @throws IllegalArgumentException naming the setting, the value and the names there are
     */
    static <E extends Enum<E>> E find(String setting, String value, E[] constants, Function<E, String> name) {
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        List<String> names = new ArrayList<>();
        for (E constant : constants) {
            if (name.apply(constant).equals(wanted)) {
                return constant;
            }
            names.add("'" + name.apply(constant) + "'");
        }
        throw new IllegalArgumentException(
                setting + " is '" + value + "'; it must be one of " + String.join(", ", names));
    }
}
