package org.example.leaderboard;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ScoresTest {
    @Test
    public void theSameSeedGivesTheSamePlayers() {
        assertEquals(Scores.generate(50, 3).toString(), Scores.generate(50, 3).toString());
    }
}
