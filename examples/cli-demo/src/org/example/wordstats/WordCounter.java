package org.example.wordstats;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Counts occurrences with a hash map: linear work. */
final class WordCounter {
    private WordCounter() {}

    static Map<String, Integer> count(List<String> words) {
        Map<String, Integer> counts = new HashMap<>();
        for (String word : words) {
            counts.merge(word, 1, Integer::sum);
        }
        return counts;
    }
}
