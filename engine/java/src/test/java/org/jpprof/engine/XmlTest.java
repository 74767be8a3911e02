package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class XmlTest {
    @Test
    void attribute_values_should_escape_markup_and_keep_line_breaks() {
        assertEquals("a &lt;b&gt; &amp; &quot;c&quot;&#10;d", Xml.attribute("a <b> & \"c\"\nd"));
    }

    @Test
    void jvm_options_with_blanks_or_quotes_should_be_quoted() {
        assertEquals(
                "-Da=1 \"-Djp.output=/my work/x.jpprof\" \"-Db=say \\\"hi\\\"\" \"\"",
                Xml.commandLine(Arrays.asList("-Da=1", "-Djp.output=/my work/x.jpprof", "-Db=say \"hi\"", "")));
    }
}
