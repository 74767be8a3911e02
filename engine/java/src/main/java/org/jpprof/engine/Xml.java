package org.jpprof.engine;

import java.util.List;

/** The little XML writing that the IDE run configurations need. */
final class Xml {
    private Xml() {}

    /**
     * {@code value} as the content of a double-quoted attribute: markup characters escaped, line
     * breaks and tabs as character references so that a parser keeps them.
     */
    static String attribute(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&': out.append("&amp;"); break;
                case '<': out.append("&lt;"); break;
                case '>': out.append("&gt;"); break;
                case '"': out.append("&quot;"); break;
                case '\n': out.append("&#10;"); break;
                case '\r': out.append("&#13;"); break;
                case '\t': out.append("&#9;"); break;
                default: out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * JVM options as one line that both IDEs split back into the same options: an option holding
     * a blank or a double quote is put in double quotes, with {@code \"} for each of its own.
     */
    static String commandLine(List<String> args) {
        StringBuilder out = new StringBuilder();
        for (String arg : args) {
            if (out.length() > 0) {
                out.append(' ');
            }
            boolean quote = arg.isEmpty() || arg.matches("(?s).*[\\s\"].*");
            out.append(quote ? "\"" + arg.replace("\"", "\\\"") + "\"" : arg);
        }
        return out.toString();
    }
}
