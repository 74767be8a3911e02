package org.jpprof.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class ArgLineTest {
    @Test
    void options_with_blanks_or_quotes_are_quoted() {
        assertEquals(
                "-Djp.output=/p/x-%p.jpprof \"-Djp.output=/my work/x.jpprof\" \"-Da=say \\\"hi\\\"\"",
                ArgLine.join(Arrays.asList(
                        "-Djp.output=/p/x-%p.jpprof", "-Djp.output=/my work/x.jpprof", "-Da=say \"hi\"")));
        assertEquals("", ArgLine.join(Collections.<String>emptyList()));
    }

    @Test
    void jp_options_go_in_front_of_the_builds_arg_line() {
        assertEquals("-Djp.output=x -Xmx1g", ArgLine.prepend("-Xmx1g", null, "-Djp.output=x"));
        assertEquals("-Djp.output=x", ArgLine.prepend(null, null, "-Djp.output=x"));
        assertEquals("-Djp.output=x", ArgLine.prepend("  ", null, "-Djp.output=x"));
        assertEquals("-Xmx1g", ArgLine.prepend("-Xmx1g", null, ""));
    }

    @Test
    void a_second_run_replaces_its_own_options_instead_of_adding_them_again() {
        String first = ArgLine.prepend("-Xmx1g", null, "-Djp.output=a");
        assertEquals("-Djp.output=b -Xmx1g", ArgLine.prepend(first, "-Djp.output=a", "-Djp.output=b"));
        assertEquals("-Djp.output=a", ArgLine.prepend("-Djp.output=a", "-Djp.output=a", "-Djp.output=a"));
    }

    @Test
    void runtime_jar_is_appended_to_the_class_path_once() {
        assertEquals("/r.jar", ArgLine.appendItem(null, "/r.jar"));
        assertEquals("/a.jar,/b,/r.jar", ArgLine.appendItem("/a.jar, /b", "/r.jar"));
        assertEquals("/a.jar,/r.jar", ArgLine.appendItem("/r.jar,/a.jar", "/r.jar"));
    }
}
