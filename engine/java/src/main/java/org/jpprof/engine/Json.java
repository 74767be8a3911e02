package org.jpprof.engine;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON that the facade needs: writing strings for requests, and a strict reader (RFC
 * 8259) for outcomes. Requests and outcomes are flat objects of strings, numbers, nulls and lists,
 * so this is kept here instead of putting a JSON library on build-plugin class paths, where its
 * version could clash with another plugin's.
 *
 * <p>The reader gives {@code Map<String, Object>} (in document order), {@code List<Object>},
 * {@code String}, {@code Long} (integers that fit) or {@code BigDecimal}, {@code Boolean}, and
 * {@code null}. It refuses anything that is not one complete JSON value, duplicate keys included.
 */
final class Json {
    private final String text;
    private int position;

    private Json(String text) {
        this.text = text;
    }

    /**
     * Appends {@code value} to {@code out} as a JSON string, or {@code null}.
     *
     * @param out where to write
     * @param value the string, or {@code null}
     */
    static void writeString(StringBuilder out, String value) {
        if (value == null) {
            out.append("null");
            return;
        }
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                case '\b':
                    out.append("\\b");
                    break;
                case '\f':
                    out.append("\\f");
                    break;
                default:
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    /**
     * Parses one JSON value.
     *
     * @param text the whole document
     * @return the value (see the class comment for the types)
     * @throws IllegalArgumentException if {@code text} is not exactly one JSON value, with the
     *     character offset of the problem
     */
    static Object parse(String text) {
        Json json = new Json(text);
        json.skipWhitespace();
        Object value = json.value();
        json.skipWhitespace();
        if (json.position != text.length()) {
            throw json.error("unexpected text after the value");
        }
        return value;
    }

    private Object value() {
        if (position >= text.length()) {
            throw error("unexpected end of text");
        }
        char c = text.charAt(position);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                literal("true");
                return Boolean.TRUE;
            case 'f':
                literal("false");
                return Boolean.FALSE;
            case 'n':
                literal("null");
                return null;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("unexpected character '" + c + "'");
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        position++; // '{'
        skipWhitespace();
        if (peek() == '}') {
            position++;
            return Collections.unmodifiableMap(map);
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("expected a key");
            }
            int keyAt = position;
            String key = string();
            skipWhitespace();
            expect(':');
            skipWhitespace();
            if (map.containsKey(key)) {
                position = keyAt;
                throw error("duplicate key \"" + key + "\"");
            }
            map.put(key, value());
            skipWhitespace();
            if (peek() == ',') {
                position++;
            } else {
                expect('}');
                return Collections.unmodifiableMap(map);
            }
        }
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        position++; // '['
        skipWhitespace();
        if (peek() == ']') {
            position++;
            return Collections.unmodifiableList(list);
        }
        while (true) {
            skipWhitespace();
            list.add(value());
            skipWhitespace();
            if (peek() == ',') {
                position++;
            } else {
                expect(']');
                return Collections.unmodifiableList(list);
            }
        }
    }

    private String string() {
        position++; // '"'
        StringBuilder out = new StringBuilder();
        while (true) {
            if (position >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(position++);
            if (c == '"') {
                return out.toString();
            } else if (c < 0x20) {
                position--;
                throw error("control character in a string");
            } else if (c != '\\') {
                out.append(c);
                continue;
            }
            if (position >= text.length()) {
                throw error("unterminated string");
            }
            char escape = text.charAt(position++);
            switch (escape) {
                case '"':
                case '\\':
                case '/':
                    out.append(escape);
                    break;
                case 'b':
                    out.append('\b');
                    break;
                case 'f':
                    out.append('\f');
                    break;
                case 'n':
                    out.append('\n');
                    break;
                case 'r':
                    out.append('\r');
                    break;
                case 't':
                    out.append('\t');
                    break;
                case 'u':
                    out.append(hexChar());
                    break;
                default:
                    position -= 2;
                    throw error("unknown escape '\\" + escape + "'");
            }
        }
    }

    private char hexChar() {
        if (position + 4 > text.length()) {
            throw error("truncated \\u escape");
        }
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(position), 16);
            if (digit < 0) {
                throw error("bad hex digit in a \\u escape");
            }
            value = value * 16 + digit;
            position++;
        }
        return (char) value;
    }

    private Object number() {
        int start = position;
        if (peek() == '-') {
            position++;
        }
        if (peek() == '0') {
            position++;
        } else if (isDigit(peek())) {
            digits();
        } else {
            throw error("expected a digit");
        }
        boolean integral = true;
        if (peek() == '.') {
            integral = false;
            position++;
            if (!isDigit(peek())) {
                throw error("expected a digit after '.'");
            }
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            position++;
            if (peek() == '+' || peek() == '-') {
                position++;
            }
            if (!isDigit(peek())) {
                throw error("expected a digit in the exponent");
            }
            digits();
        }
        String literal = text.substring(start, position);
        if (integral) {
            try {
                return Long.valueOf(literal);
            } catch (NumberFormatException tooLarge) {
                return new BigDecimal(literal);
            }
        }
        return new BigDecimal(literal);
    }

    private void digits() {
        while (isDigit(peek())) {
            position++;
        }
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private void literal(String word) {
        if (!text.startsWith(word, position)) {
            throw error("unexpected text");
        }
        position += word.length();
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        position++;
    }

    /** The next character, or -1 at the end. */
    private int peek() {
        return position < text.length() ? text.charAt(position) : -1;
    }

    private void skipWhitespace() {
        while (position < text.length()) {
            char c = text.charAt(position);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            position++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("bad JSON at character " + position + ": " + what);
    }
}
