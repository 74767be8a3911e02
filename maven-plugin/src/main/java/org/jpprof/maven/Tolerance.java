package org.jpprof.maven;

/**
 * A tolerance of {@code jp:check} for the tests and methods a pattern names, in the POM:
 * {@code <tolerance><pattern>com.acme.SlowTest#*</pattern><percent>5</percent></tolerance>}.
 * Maven sets the fields.
 */
public class Tolerance {
    /** The pattern of test ids or method names; {@code *} stands for any text. */
    private String pattern;
    /** The tolerance in percent. */
    private double percent;

    /** @return the pattern */
    String pattern() {
        return pattern;
    }

    /** @return the tolerance in percent */
    double percent() {
        return percent;
    }
}
