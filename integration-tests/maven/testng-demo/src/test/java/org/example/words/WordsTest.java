package org.example.words;

import static org.testng.Assert.assertEquals;

import org.testng.annotations.BeforeClass;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

public class WordsTest {
    private Words words;

    @BeforeClass
    public static void loadSeparators() {
        Words.loadSeparators();
    }

    @BeforeMethod
    public void setUp() {
        words = new Words();
    }

    @DataProvider
    public Object[][] texts() {
        return new Object[][] {{"a", 1}, {"a b", 2}, {"a b c d e f g h", 8}};
    }

    @Test(dataProvider = "texts")
    public void splits(String text, int count) {
        assertEquals(words.split(text).size(), count);
    }

    @Test
    public void keepsEmptyWords() {
        assertEquals(words.split("  ").size(), 3);
    }
}
