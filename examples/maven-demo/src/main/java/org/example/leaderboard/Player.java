package org.example.leaderboard;

/** A player's name and score. */
public final class Player {
    private final String name;
    private final int score;

    public Player(String name, int score) {
        this.name = name;
        this.score = score;
    }

    public String name() {
        return name;
    }

    public int score() {
        return score;
    }

    @Override
    public String toString() {
        return name + " " + score;
    }
}
