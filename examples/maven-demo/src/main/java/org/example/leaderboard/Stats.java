package org.example.leaderboard;

import java.util.Arrays;
import java.util.List;

/** Summary statistics of scores: linear work, apart from one library sort. */
public final class Stats {
    private Stats() {}

    public static double mean(List<Player> players) {
        long sum = 0;
        for (Player player : players) {
            sum += player.score();
        }
        return players.isEmpty() ? 0 : (double) sum / players.size();
    }

    public static double median(List<Player> players) {
        if (players.isEmpty()) {
            throw new IllegalArgumentException("no players");
        }
        int[] scores = new int[players.size()];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = players.get(i).score();
        }
        Arrays.sort(scores);
        int middle = scores.length / 2;
        return scores.length % 2 == 1 ? scores[middle] : (scores[middle - 1] + scores[middle]) / 2.0;
    }
}
