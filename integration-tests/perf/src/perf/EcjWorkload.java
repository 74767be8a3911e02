package perf;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.eclipse.jdt.core.compiler.batch.BatchCompiler;

/**
 * The Eclipse compiler (ecj) compiling a real source tree in process: five sub-packages of
 * commons-lang3 (exception, math, mutable, text, tuple: 56 files, 18,000 lines), against the
 * commons-lang3 jar for the classes they use from elsewhere. The class files go to a fresh temporary
 * directory each round; the checksum covers their names and bytes, and the compiler's messages.
 *
 * <p>System properties: {@code perf.sources} (the unpacked sources jar) and {@code perf.classpath}
 * (the commons-lang3 jar).
 */
public final class EcjWorkload {
    private EcjWorkload() {}

    /** The packages compiled (sub-packages of org.apache.commons.lang3). */
    private static final List<String> FULL = List.of("exception", "math", "mutable", "text", "tuple");

    /** The packages compiled in the quick mode (27 files, 8,000 lines). */
    private static final List<String> SMALL = List.of("compare", "event", "math", "mutable", "tuple");

    public static void main(String[] args) throws Exception {
        Path root = Paths.get(System.getProperty("perf.sources")).resolve("org/apache/commons/lang3");
        String classpath = System.getProperty("perf.classpath");
        List<String> packages = Workload.small() ? SMALL : FULL;
        for (String p : packages) {
            if (!Files.isDirectory(root.resolve(p))) throw new IllegalStateException("no package " + p + " under " + root);
        }
        List<String> options = new ArrayList<>(List.of("-17", "-nowarn", "-proceedOnError", "-encoding", "UTF-8",
                "-cp", classpath));
        for (String p : packages) options.add(root.resolve(p).toString());
        Workload.main("ecj", args, 1, () -> round(options));
    }

    private static long round(List<String> options) throws Exception {
        Path out = Files.createTempDirectory("perf-ecj");
        try {
            List<String> args = new ArrayList<>(options);
            args.add(0, out.toString());
            args.add(0, "-d");
            StringWriter messages = new StringWriter();
            boolean ok = BatchCompiler.compile(args.toArray(new String[0]), new PrintWriter(messages),
                    new PrintWriter(messages), null);
            if (!ok) System.err.println("ecj: the compile reported errors:\n" + messages);
            CRC32 crc = new CRC32();
            List<Path> classes;
            try (Stream<Path> files = Files.walk(out)) {
                classes = files.filter(p -> p.toString().endsWith(".class")).sorted().collect(Collectors.toList());
            }
            for (Path p : classes) {
                crc.update(out.relativize(p).toString().getBytes("UTF-8"));
                crc.update(Files.readAllBytes(p));
            }
            crc.update(messages.toString().replace(out.toString(), "OUT").getBytes("UTF-8"));
            return (long) classes.size() << 32 | crc.getValue();
        } finally {
            delete(out);
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) Files.delete(p);
        }
    }
}
