package org.jpprof.maven;

import java.util.ArrayList;
import java.util.List;

/**
 * Surefire's {@code argLine}, and its comma-separated lists ({@code maven.test.additionalClasspath},
 * {@code maven.test.dependency.excludes}), with JP's part added to what the build already has.
 * Surefire splits the argLine like a shell does (double quotes group), and the lists at commas.
 */
final class ArgLine {
    private ArgLine() {}

    /**
     * JVM options as one argLine, each quoted if it holds a blank or a quote.
     *
     * @param args the options
     * @return the argLine, empty for no options
     */
    static String join(List<String> args) {
        StringBuilder out = new StringBuilder();
        for (String arg : args) {
            if (out.length() > 0) {
                out.append(' ');
            }
            out.append(quote(arg));
        }
        return out.toString();
    }

    static String quote(String arg) {
        boolean plain = !arg.isEmpty();
        for (int i = 0; i < arg.length() && plain; i++) {
            char c = arg.charAt(i);
            plain = !Character.isWhitespace(c) && c != '"' && c != '\'';
        }
        return plain ? arg : '"' + arg.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /**
     * Puts JP's options in front of the build's argLine. When JP's options of an earlier run of the
     * goal in this build are already in front, they are replaced, so running the goal twice does
     * not add them twice.
     *
     * @param existing the argLine the build has, or {@code null}
     * @param previous JP's part that an earlier run put in front, or {@code null}
     * @param jp JP's options
     * @return the new argLine
     */
    static String prepend(String existing, String previous, String jp) {
        String rest = existing == null ? "" : existing.trim();
        if (previous != null && !previous.isEmpty() && rest.startsWith(previous)) {
            rest = rest.substring(previous.length()).trim();
        }
        if (rest.isEmpty()) {
            return jp;
        }
        return jp.isEmpty() ? rest : jp + " " + rest;
    }

    /**
     * Adds an item (a class path element, an excluded dependency) to a comma-separated list, at
     * its end, unless it is there already.
     *
     * @param existing the list the build has, or {@code null}
     * @param item the item
     * @return the new list
     */
    static String appendItem(String existing, String item) {
        List<String> items = new ArrayList<>();
        if (existing != null) {
            for (String element : existing.split(",")) {
                String trimmed = element.trim();
                if (!trimmed.isEmpty() && !trimmed.equals(item)) {
                    items.add(trimmed);
                }
            }
        }
        items.add(item);
        return String.join(",", items);
    }
}
