package perf;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.stream.Stream;
import org.eclipse.jdt.core.compiler.batch.BatchCompiler;

/** The Eclipse compiler compiling a real source tree (commons-lang3's sources), in process. */
public final class EcjWorkload {
    private EcjWorkload() {}

    public static void main(String[] args) throws Exception {
        Path sources = Paths.get(System.getProperty("perf.sources"));
        Workload.main("ecj", args, () -> round(sources));
    }

    private static long round(Path sources) throws Exception {
        Path out = Files.createTempDirectory("perf-ecj");
        try {
            StringWriter messages = new StringWriter();
            boolean ok = BatchCompiler.compile(new String[] {"-17", "-nowarn", "-proceedOnError", "-d", out.toString(),
                    sources.toString()}, new PrintWriter(messages), new PrintWriter(messages), null);
            try (Stream<Path> files = Files.walk(out)) {
                long classes = files.filter(p -> p.toString().endsWith(".class")).count();
                return classes * 2 + (ok ? 1 : 0);
            }
        } finally {
            try (Stream<Path> files = Files.walk(out)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
