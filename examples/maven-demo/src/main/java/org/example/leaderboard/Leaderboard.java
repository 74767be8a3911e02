package org.example.leaderboard;

import java.util.ArrayList;
import java.util.List;

/** Ranks players with an insertion sort: quadratic, the hot spot a profile should show. */
public final class Leaderboard {
    private Leaderboard() {}

    /** Higher scores first, then names in alphabetical order. */
    public static List<Player> rank(List<Player> players) {
        List<Player> ranked = new ArrayList<>(players);
        for (int i = 1; i < ranked.size(); i++) {
            Player current = ranked.get(i);
            int j = i - 1;
            while (j >= 0 && before(current, ranked.get(j))) {
                ranked.set(j + 1, ranked.get(j));
                j--;
            }
            ranked.set(j + 1, current);
        }
        return ranked;
    }

    public static List<Player> top(List<Player> players, int n) {
        List<Player> ranked = rank(players);
        return ranked.subList(0, Math.min(n, ranked.size()));
    }

    private static boolean before(Player a, Player b) {
        if (a.score() != b.score()) {
            return a.score() > b.score();
        }
        return a.name().compareTo(b.name()) < 0;
    }
}
