package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine's one-class entry point, for real: this class's own bytes rewritten in memory. */
class ClassRewriterTest {
    private static final String NAME = "org/jpprof/engine/ClassRewriterTest";

    @Test
    void an_admitted_class_should_come_back_rewritten() throws IOException {
        ClassRewriter rewriter = Engine.load().classRewriter(ClassRewriterSettings.builder()
                .bba(InstrumentRequest.Bba.PRECISE).build());
        ClassRewriter.RewrittenClass rewritten = rewriter.rewrite(NAME, ownBytes());
        assertNotNull(rewritten);
        assertNotNull(rewritten.bytes());
        assertTrue(rewritten.bytes().length > ownBytes().length);
        assertEquals(Collections.emptyList(), rewritten.warnings());
    }

    @Test
    void a_class_the_patterns_leave_out_should_be_left_alone() throws IOException {
        ClassRewriter rewriter = Engine.load().classRewriter(ClassRewriterSettings.builder()
                .include(Collections.singletonList("com.acme.**")).build());
        assertNull(rewriter.rewrite(NAME, ownBytes()));
    }

    @Test
    void bad_bytes_should_throw_naming_the_class() {
        ClassRewriter rewriter =
                Engine.load().classRewriter(ClassRewriterSettings.builder().build());
        EngineException e = assertThrows(EngineException.class,
                () -> rewriter.rewrite("com/acme/Broken", new byte[] {(byte) 0xca, (byte) 0xfe}));
        assertTrue(e.getMessage().startsWith("com.acme.Broken: malformed class file: "),
                e.getMessage());
    }

    @Test
    void a_bad_configuration_file_should_throw_naming_it(@TempDir Path dir) throws IOException {
        Path config = Files.write(dir.resolve("jp.toml"),
                "[instrument]\nbba = \"exact\"\n".getBytes(StandardCharsets.UTF_8));
        EngineException e = assertThrows(EngineException.class, () -> Engine.load()
                .classRewriter(ClassRewriterSettings.builder().configFile(config).build()));
        assertTrue(e.getMessage().startsWith(config.toString()), e.getMessage());
    }

    @Test
    void a_cached_class_should_be_the_same_bytes(@TempDir Path dir) throws IOException {
        ClassRewriterSettings settings = ClassRewriterSettings.builder().cacheDir(dir).build();
        byte[] first = Engine.load().classRewriter(settings).rewrite(NAME, ownBytes()).bytes();
        byte[] again = Engine.load().classRewriter(settings).rewrite(NAME, ownBytes()).bytes();
        assertArrayEquals(first, again);
    }

    @Test
    void an_answer_should_decode_into_its_warnings_and_its_class() {
        byte[] head = "{\"warnings\":[\"A.run()V: too large\"]}".getBytes(StandardCharsets.UTF_8);
        byte[] answer = new byte[4 + head.length + 2];
        answer[3] = (byte) head.length;
        System.arraycopy(head, 0, answer, 4, head.length);
        answer[answer.length - 2] = 7;
        answer[answer.length - 1] = 9;
        ClassRewriter.RewrittenClass decoded = ClassRewriter.decode(answer);
        assertEquals(Collections.singletonList("A.run()V: too large"), decoded.warnings());
        assertArrayEquals(new byte[] {7, 9}, decoded.bytes());
        byte[] kept = new byte[4 + head.length];
        System.arraycopy(answer, 0, kept, 0, kept.length);
        assertNull(ClassRewriter.decode(kept).bytes());
        assertThrows(EngineException.class, () -> ClassRewriter.decode(new byte[] {0, 0, 1, 0}));
    }

    private static byte[] ownBytes() throws IOException {
        try (InputStream in = ClassRewriterTest.class.getResourceAsStream("ClassRewriterTest.class")) {
            return EngineTest.readAll(in);
        }
    }
}
