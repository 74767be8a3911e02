package org.example.wordstats;

import java.util.ArrayList;
import java.util.List;

/** Pseudo-random text with a skewed word distribution, the same for the same seed. */
final class TextGenerator {
    private TextGenerator() {}

    private static final String[] SYLLABLES = {"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo"};

    static List<String> words(int count, long seed) {
        List<String> words = new ArrayList<>(count);
        long state = seed;
        for (int i = 0; i < count; i++) {
            state = state * 6364136223846793005L + 1442695040888963407L;
            int length = 1 + (int) ((state >>> 60) & 1);
            StringBuilder word = new StringBuilder();
            for (int s = 0; s <= length; s++) {
                word.append(SYLLABLES[(int) ((state >>> (20 + 3 * s)) & 7) & (s == 0 ? 3 : 7)]);
            }
            words.add(word.toString());
        }
        return words;
    }
}
