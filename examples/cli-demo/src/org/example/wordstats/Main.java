package org.example.wordstats;

import java.util.List;
import java.util.Map;

/** Counts the words of a generated text and prints the most frequent ones. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        int words = args.length > 0 ? Integer.parseInt(args[0]) : 4_000;
        List<String> text = TextGenerator.words(words, 42);
        Map<String, Integer> counts = WordCounter.count(text);
        List<Map.Entry<String, Integer>> ranked = Ranking.byCount(counts);
        for (Map.Entry<String, Integer> entry : ranked.subList(0, Math.min(5, ranked.size()))) {
            System.out.println(entry.getKey() + " " + entry.getValue());
        }
        System.out.println(counts.size() + " distinct words in " + text.size());
    }
}
