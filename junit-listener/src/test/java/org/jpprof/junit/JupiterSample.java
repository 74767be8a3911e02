package org.jpprof.junit;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Run by {@link ListenerTest} through the Launcher, not by the build (its name is no test's). */
class JupiterSample {
    @BeforeAll
    static void beforeAll() {
        Work.run("beforeAll");
    }

    @AfterAll
    static void afterAll() {
        Work.run("afterAll");
    }

    @BeforeEach
    void setUp() {
        Work.run("setUp");
    }

    @Test
    void plain() {
        Work.run("plain");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "b,c"})
    void parses(String text) {
        Work.run("parses");
    }

    @TestFactory
    List<DynamicTest> dynamic() {
        return Arrays.asList(DynamicTest.dynamicTest("first", () -> Work.run("dynamic")));
    }
}
