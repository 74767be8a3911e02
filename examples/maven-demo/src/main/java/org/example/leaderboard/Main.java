package org.example.leaderboard;

import java.util.List;

/** Prints the top five of a generated league. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        List<Player> players = Scores.generate(count, 42);
        for (Player player : Leaderboard.top(players, 5)) {
            System.out.println(player);
        }
        System.out.printf("mean %.1f, median %.1f%n", Stats.mean(players), Stats.median(players));
    }
}
