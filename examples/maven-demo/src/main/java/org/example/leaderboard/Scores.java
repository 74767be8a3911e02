package org.example.leaderboard;

import java.util.ArrayList;
import java.util.List;

/** Pseudo-random players, the same for the same seed. */
public final class Scores {
    private static final String[] SYLLABLES = {"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo"};

    private Scores() {}

    public static List<Player> generate(int count, long seed) {
        List<Player> players = new ArrayList<>(count);
        long state = seed;
        for (int i = 0; i < count; i++) {
            state = state * 6364136223846793005L + 1442695040888963407L;
            StringBuilder name = new StringBuilder();
            for (int s = 0; s < 3; s++) {
                name.append(SYLLABLES[(int) ((state >>> (20 + 3 * s)) & 7)]);
            }
            players.add(new Player(name.toString(), (int) ((state >>> 40) % 1000)));
        }
        return players;
    }
}
