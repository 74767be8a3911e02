package org.example.leaderboard;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.Test;

public class StatsTest {
    private final List<Player> players =
            Arrays.asList(new Player("a", 10), new Player("b", 40), new Player("c", 30), new Player("d", 20));

    @Test
    public void meanOfFourScores() {
        assertEquals(25.0, Stats.mean(players), 0.0);
    }

    @Test
    public void medianOfAnEvenCountIsTheMiddlePair() {
        assertEquals(25.0, Stats.median(players), 0.0);
    }

    @Test(expected = IllegalArgumentException.class)
    public void medianOfNobodyFails() {
        Stats.median(Arrays.<Player>asList());
    }
}
