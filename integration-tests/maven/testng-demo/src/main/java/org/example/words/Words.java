package org.example.words;

import java.util.ArrayList;
import java.util.List;

/** Splits text into words: work that grows with the text, so each input counts differently. */
public final class Words {
    private static String separators;
    private final StringBuilder word = new StringBuilder();

    /** What the tests load once for their class. */
    public static void loadSeparators() {
        separators = new StringBuilder().append(' ').append('\t').toString();
    }

    public List<String> split(String text) {
        List<String> out = new ArrayList<>();
        word.setLength(0);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (separators.indexOf(c) >= 0) {
                out.add(word.toString());
                word.setLength(0);
            } else {
                word.append(c);
            }
        }
        out.add(word.toString());
        return out;
    }
}
