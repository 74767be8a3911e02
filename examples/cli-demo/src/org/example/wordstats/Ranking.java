package org.example.wordstats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Orders words by count with an insertion sort: quadratic, the hot spot a profile should show. */
final class Ranking {
    private Ranking() {}

    static List<Map.Entry<String, Integer>> byCount(Map<String, Integer> counts) {
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
        for (int i = 1; i < entries.size(); i++) {
            Map.Entry<String, Integer> current = entries.get(i);
            int j = i - 1;
            while (j >= 0 && before(current, entries.get(j))) {
                entries.set(j + 1, entries.get(j));
                j--;
            }
            entries.set(j + 1, current);
        }
        return entries;
    }

    /** Higher counts first, then alphabetical. */
    private static boolean before(Map.Entry<String, Integer> a, Map.Entry<String, Integer> b) {
        int byCount = Integer.compare(b.getValue(), a.getValue());
        return byCount < 0 || (byCount == 0 && a.getKey().compareTo(b.getKey()) < 0);
    }
}
