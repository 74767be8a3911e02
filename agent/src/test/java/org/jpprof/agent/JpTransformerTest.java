package org.jpprof.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import org.jpprof.engine.ClassRewriterSettings;
import org.jpprof.engine.Engine;
import org.junit.jupiter.api.Test;

/** The transformer over the real engine, called as the JVM calls it. */
class JpTransformerTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final JpTransformer transformer = new JpTransformer(
            Engine.load().classRewriter(ClassRewriterSettings.builder()
                    .exclude(Collections.singletonList("com.acme.Excluded")).build()),
            new PrintStream(err, true));
    private final ClassLoader app = JpTransformerTest.class.getClassLoader();

    @Test
    void an_application_class_should_be_rewritten() throws IOException {
        assertNotNull(transformer.transform(app, "com/acme/Sample", null, null, sample()));
        assertEquals("", stderr());
    }

    @Test
    void jdk_classes_jp_classes_and_excluded_ones_should_be_left_alone() throws IOException {
        assertNull(transformer.transform(null, "com/acme/Sample", null, null, sample()));
        assertNull(transformer.transform(app.getParent(), "com/acme/Sample", null, null, sample()));
        for (String name : new String[] {"java/util/Sample", "jdk/internal/Sample", "sun/misc/Sample",
                "org/jpprof/runtime/RC", "org/jpprof/engine/Engine", "com/acme/Excluded",
                "com/acme/$Proxy12", "jdk/proxy1/$Proxy3"}) {
            assertNull(transformer.transform(app, name, null, null, sample()), name);
        }
        assertNull(transformer.transform(app, null, null, null, sample()));
        assertNull(transformer.transform(app, "com/acme/Sample", Object.class, null, sample()));
        assertEquals("", stderr());
    }

    @Test
    void a_class_jp_cannot_read_should_be_left_with_one_warning() {
        assertNull(transformer.transform(app, "com/acme/Broken", null, null, new byte[] {1, 2}));
        String warning = stderr();
        assertTrue(warning.startsWith("jp: com.acme.Broken: malformed class file: "), warning);
        assertTrue(warning.endsWith("; the class is left as it was" + System.lineSeparator()),
                warning);
        assertEquals(1, warning.split(System.lineSeparator()).length);
    }

    @Test
    void nothing_should_be_thrown_into_the_jvm() {
        assertNull(transformer.transform(app, "com/acme/Sample", null, null, null));
        assertTrue(stderr().startsWith("jp: com.acme.Sample: java.lang.NullPointerException"),
                stderr());
    }

    private String stderr() {
        return new String(err.toByteArray(), StandardCharsets.UTF_8);
    }

    /** A class file to rewrite: this test's own. */
    private static byte[] sample() throws IOException {
        try (InputStream in = JpTransformerTest.class.getResourceAsStream("JpTransformerTest.class")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        }
    }
}
