package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real report requests through the native library. */
class ReportTest {
    private static final String MAIN = "demo.Main.main([Ljava/lang/String;)V";
    private static final String SORT = "demo.Main.sort([I)V";
    /** The frames as the folded and text reports write them: Java signatures, no `;`. */
    private static final String MAIN_SHOWN = "demo.Main.main(java.lang.String[]):void";
    private static final String SORT_SHOWN = "demo.Main.sort(int[]):void";
    /** {@link #SORT} as the text report names it by default: short, its package after it. */
    private static final String SORT_READ = "Main.sort(int[]) [demo]";

    @TempDir
    Path temp;

    /** A profile as a test JVM writes it (docs/profile-format.md): main, and sort under it. */
    private Path profile(String name, long mainBytecodes, long sortBytecodes) throws IOException {
        Path file = temp.resolve(name);
        String text = "jp-profile 1\n"
                + "frame 1 " + MAIN + "\n"
                + "frame 2 " + SORT + "\n"
                + "node 1 0 1 1 " + mainBytecodes + "\n"
                + "node 2 1 2 3 " + sortBytecodes + "\n"
                + "end 2\n";
        Files.write(file, text.getBytes(StandardCharsets.UTF_8));
        return file;
    }

    private String read(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }

    @Test
    void report_should_merge_profiles_into_one_folded_file() throws IOException {
        Path out = temp.resolve("report.folded");
        Engine.load().report(ReportRequest.builder()
                .profiles(Arrays.asList(profile("a.jpprof", 10, 500), profile("b.jpprof", 2, 100)))
                .format(ReportRequest.Format.FOLDED)
                .out(out)
                .build());
        assertEquals(MAIN_SHOWN + " 12\n" + MAIN_SHOWN + ";" + SORT_SHOWN + " 600\n", read(out));
        Engine.load().report(ReportRequest.builder()
                .profile(temp.resolve("a.jpprof"))
                .format(ReportRequest.Format.FOLDED)
                .metric(ReportRequest.Metric.CALLS)
                .maxDepth(1)
                .out(out)
                .build());
        assertEquals(MAIN_SHOWN + " 1\n", read(out));
    }

    @Test
    void report_should_write_a_complete_html_page_and_a_text_tree() throws IOException {
        Path profile = profile("a.jpprof", 10, 500);
        Path html = temp.resolve("index.html");
        Path text = temp.resolve("report.txt");
        Engine.load().report(ReportRequest.builder()
                .profile(profile).format(ReportRequest.Format.HTML).out(html).build());
        Engine.load().report(ReportRequest.builder()
                .profile(profile).format(ReportRequest.Format.TEXT).out(text).build());
        String page = read(html);
        assertTrue(page.startsWith("<!DOCTYPE html>"), "an HTML document");
        assertTrue(page.trim().endsWith("</html>"), "a complete page");
        assertTrue(page.contains("demo.Main.sort"), "the page names the hot method");
        assertTrue(read(text).contains(SORT_READ), read(text));
    }

    @Test
    void unreadable_profiles_should_throw_naming_each_file() throws IOException {
        Path good = profile("good.jpprof", 1, 1);
        Path corrupt = temp.resolve("corrupt.jpprof");
        Files.write(corrupt, "not a profile\n".getBytes(StandardCharsets.UTF_8));
        Path missing = temp.resolve("missing.jpprof");
        Path out = temp.resolve("report.txt");
        EngineException e = assertThrows(EngineException.class, () -> Engine.load().report(
                ReportRequest.builder()
                        .profile(corrupt).profile(good).profile(missing)
                        .format(ReportRequest.Format.TEXT).out(out).build()));
        assertTrue(e.getMessage().contains(corrupt.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
        assertFalse(e.getMessage().contains(good.toString()), e.getMessage());
        assertFalse(Files.exists(out), "no report is written");
    }

    @Test
    void an_unwritable_report_file_should_throw_naming_it() throws IOException {
        Path profile = profile("a.jpprof", 1, 1);
        Path file = temp.resolve("file");
        Files.write(file, new byte[] {1});
        Path out = file.resolve("report.txt");
        EngineException e = assertThrows(EngineException.class, () -> Engine.load().report(
                ReportRequest.builder().profile(profile).format(ReportRequest.Format.TEXT).out(out).build()));
        assertTrue(e.getMessage().startsWith(out + ": "), e.getMessage());
    }

    @Test
    void a_report_request_that_is_not_json_should_throw() {
        Engine.load();
        EngineException e = assertThrows(EngineException.class,
                () -> NativeEngine.report("{\"profiles\":[],\"format\":\"pdf\",\"out\":\"/o\"}"));
        assertTrue(e.getMessage().startsWith("invalid request: "), e.getMessage());
    }
}
