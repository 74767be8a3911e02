package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real requests through the native library. */
class InstrumentTest {
    @TempDir
    Path temp;

    /** Compiles {@code demo.Hello} into {@code classes}. */
    private static void compileHello(Path classes) throws IOException {
        Path source = classes.getParent().resolve("src").resolve("demo").resolve("Hello.java");
        Files.createDirectories(source.getParent());
        Files.createDirectories(classes);
        Files.write(source, ("package demo;\n"
                + "public class Hello {\n"
                + "    public static int twice(int x) { return x + x; }\n"
                + "    public static void main(String[] args) {\n"
                + "        for (int i = 0; i < 3; i++) { System.out.println(twice(i)); }\n"
                + "    }\n"
                + "}\n").getBytes(StandardCharsets.UTF_8));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(null, null, null, "-d", classes.toString(), source.toString());
        assertEquals(0, status, "javac");
    }

    @Test
    void instrument_should_rewrite_a_class_directory() throws IOException {
        Path classes = temp.resolve("classes");
        compileHello(classes);
        Files.write(classes.resolve("demo").resolve("notes.txt"), new byte[] {'x'});
        Path out = temp.resolve("out");
        InstrumentResult result = Engine.load().instrument(
                InstrumentRequest.builder().input(classes).output(out).build());
        assertEquals(Collections.emptyList(), result.errors());
        assertEquals(1, result.rewritten(), result.toString());
        assertEquals(1, result.copied(), result.toString());
        assertTrue(Files.isRegularFile(out.resolve("demo").resolve("Hello.class")));
        assertTrue(Files.isRegularFile(out.resolve("demo").resolve("notes.txt")));
        assertFalse(java.util.Arrays.equals(
                Files.readAllBytes(classes.resolve("demo").resolve("Hello.class")),
                Files.readAllBytes(out.resolve("demo").resolve("Hello.class"))),
                "the class is rewritten");
    }

    @Test
    void a_second_run_with_a_cache_should_reuse_the_class() throws IOException {
        Path classes = temp.resolve("classes");
        compileHello(classes);
        InstrumentRequest request = InstrumentRequest.builder()
                .input(classes)
                .output(temp.resolve("out"))
                .cacheDir(temp.resolve("cache"))
                .bba(InstrumentRequest.Bba.PRECISE)
                .include("demo.**")
                .build();
        InstrumentResult first = Engine.load().instrument(request);
        assertEquals(1, first.rewritten(), first.toString());
        InstrumentResult second = Engine.load().instrument(request);
        assertEquals(0, second.rewritten(), second.toString());
        assertEquals(1, second.reused(), second.toString());
    }

    @Test
    void a_corrupt_class_file_should_be_an_error_naming_the_file() throws IOException {
        Path classes = temp.resolve("classes");
        compileHello(classes);
        Path bad = classes.resolve("demo").resolve("Broken.class");
        Files.write(bad, new byte[] {(byte) 0xca, (byte) 0xfe, (byte) 0xba, (byte) 0xbe, 0, 0, 0, 52});
        InstrumentResult result = Engine.load().instrument(
                InstrumentRequest.builder().input(classes).output(temp.resolve("out")).build());
        assertEquals(1, result.errors().size(), result.toString());
        InstrumentResult.Diagnostic error = result.errors().get(0);
        assertEquals(bad.toString(), error.path());
        assertTrue(error.message().startsWith("malformed class file: "), error.message());
    }

    @Test
    void an_output_that_cannot_be_created_should_throw_naming_the_path() throws IOException {
        Path classes = temp.resolve("classes");
        compileHello(classes);
        Path file = temp.resolve("file");
        Files.write(file, new byte[] {1});
        Path out = file.resolve("out");
        EngineException e = assertThrows(EngineException.class, () -> Engine.load().instrument(
                InstrumentRequest.builder().input(classes).output(out).build()));
        assertTrue(e.getMessage().startsWith(out + ": cannot write the output directory: "),
                e.getMessage());
    }

    @Test
    void a_missing_input_should_be_an_error_naming_it() {
        Path missing = temp.resolve("no-such-classes");
        InstrumentResult result = Engine.load().instrument(InstrumentRequest.builder()
                .input(missing).output(temp.resolve("out")).build());
        assertEquals(1, result.errors().size(), result.toString());
        assertEquals(missing.toString(), result.errors().get(0).path());
    }

    @Test
    void a_missing_configuration_file_should_throw_naming_it() throws IOException {
        Path classes = temp.resolve("classes");
        compileHello(classes);
        Path config = temp.resolve("jp.toml");
        EngineException e = assertThrows(EngineException.class, () -> Engine.load().instrument(
                InstrumentRequest.builder().input(classes).output(temp.resolve("out"))
                        .configFile(config).build()));
        assertTrue(e.getMessage().startsWith(config + ": "), e.getMessage());
    }

    @Test
    void a_request_that_is_not_json_should_throw() {
        Engine.load();
        EngineException e = assertThrows(EngineException.class, () -> NativeEngine.instrument("{"));
        assertTrue(e.getMessage().startsWith("invalid request: "), e.getMessage());
        e = assertThrows(EngineException.class,
                () -> NativeEngine.instrument("{\"inputs\":[],\"output\":\"/o\",\"extra\":1}"));
        assertTrue(e.getMessage().contains("unknown field `extra`"), e.getMessage());
    }
}
