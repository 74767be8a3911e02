package org.jpprof.junit;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/** Run by {@link ListenerTest} through TestNG, in one thread and with parallel methods. */
public class TestNGSample {
    @BeforeClass
    public void beforeClass() {
        Work.run("beforeClass");
    }

    @BeforeMethod
    public void setUp() {
        Work.run("setUp");
    }

    @AfterMethod
    public void tearDown() {
        Work.run("tearDown");
    }

    @Test
    public void plain() {
        Work.run("plain");
    }

    @Test
    public void other() {
        Work.run("other");
    }

    @DataProvider
    public Object[][] lines() {
        return new Object[][] {{"a", 1}, {"b,c", 2}};
    }

    @Test(dataProvider = "lines")
    public void parses(String line, int count) {
        Work.run("parses");
    }
}
