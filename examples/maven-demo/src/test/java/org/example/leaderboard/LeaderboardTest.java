package org.example.leaderboard;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.Test;

public class LeaderboardTest {
    @Test
    public void ranksHigherScoresFirst() {
        List<Player> ranked =
                Leaderboard.rank(Arrays.asList(new Player("a", 1), new Player("b", 3), new Player("c", 2)));
        assertEquals("[b 3, c 2, a 1]", ranked.toString());
    }

    @Test
    public void ranksEqualScoresByName() {
        List<Player> ranked =
                Leaderboard.rank(Arrays.asList(new Player("zed", 5), new Player("amy", 5)));
        assertEquals("[amy 5, zed 5]", ranked.toString());
    }

    @Test
    public void ranksTwoThousandGeneratedPlayers() {
        List<Player> ranked = Leaderboard.rank(Scores.generate(2_000, 7));
        assertEquals(2_000, ranked.size());
        for (int i = 1; i < ranked.size(); i++) {
            assertTrue(ranked.get(i - 1).score() >= ranked.get(i).score());
        }
    }

    @Test
    public void topIsAtMostTheLeague() {
        assertEquals(3, Leaderboard.top(Scores.generate(3, 1), 5).size());
    }
}
