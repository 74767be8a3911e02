import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a verifier run found, class by class, and how two runs compare; shared by
 * {@code VerifyClasses} and {@code ClassFileVerify}.
 *
 * <p>Three outputs:
 * <ul>
 *   <li>the summary on stdout: {@code verify: N classes, V verify errors, O other failures};
 *   <li>the report ({@code --report FILE}): one block per failing class, with the verifier's
 *       whole message for verify errors (first 40 lines);
 *   <li>the table ({@code --tsv FILE}): one line per failing class,
 *       {@code name<TAB>kind<TAB>message}, sorted by name, where kind is {@code verify}
 *       (VerifyError, ClassFormatError) or {@code other} (NoClassDefFoundError, any other
 *       LinkageError or exception), and message is one line.
 * </ul>
 * A class is named by its binary name; {@code @N} is appended for the entry of
 * {@code META-INF/versions/N/}, and {@code root!} is prepended when each root was checked on its
 * own ({@code --separate}), since two roots may hold the same class.
 */
final class Findings {
    static final String VERIFY = "verify";
    static final String OTHER = "other";

    private record Failure(String kind, String summary, String detail) {}

    private final TreeMap<String, Failure> failures = new TreeMap<>();
    private int classes;
    private int skipped;
    private final List<String> skippedExamples = new ArrayList<>();

    /** Counts a class that passed. */
    void ok() {
        classes++;
    }

    /** Counts a class that was not checked because this JVM cannot read its version. */
    void skip(String name, int major) {
        skipped++;
        if (skippedExamples.size() < 3) skippedExamples.add(name + " (major " + major + ")");
    }

    /** Records a failing class. */
    void fail(String name, String kind, String summary, String detail) {
        classes++;
        failures.put(name, new Failure(kind, oneLine(summary), detail));
    }

    /** Records a failing class from what the JVM threw. */
    void fail(String name, Throwable t) {
        String kind = t instanceof VerifyError || t instanceof ClassFormatError ? VERIFY : OTHER;
        String message = String.valueOf(t.getMessage());
        fail(name, kind, t.getClass().getName() + ": " + summarize(message), t.getClass().getName() + ": " + message);
    }

    /**
     * One line out of a HotSpot message: its first line, plus the location and reason lines of the
     * split verifier's "Exception Details", when there are any.
     */
    static String summarize(String message) {
        String[] lines = message.split("\n");
        StringBuilder out = new StringBuilder(lines[0].trim());
        for (int i = 1; i + 1 < lines.length; i++) {
            String line = lines[i].trim();
            if (line.equals("Location:")) out.append(" at ").append(lines[i + 1].trim());
            if (line.equals("Reason:")) out.append(": ").append(lines[i + 1].trim());
        }
        return out.toString();
    }

    private static String oneLine(String text) {
        return text.replace('\t', ' ').replace('\r', ' ').replace('\n', ' ');
    }

    int count(String kind) {
        return (int) failures.values().stream().filter(f -> f.kind.equals(kind)).count();
    }

    /** The summary line(s) for stdout. */
    String summary() {
        String line = "verify: " + classes + " classes, " + count(VERIFY) + " verify errors, " + count(OTHER)
                + " other failures";
        if (skipped > 0) {
            line += "\nverify: " + skipped + " classes skipped, their version is newer than this JVM's ("
                    + Runtime.version().feature() + "), e.g. " + String.join(", ", skippedExamples);
        }
        return line;
    }

    /** Writes the report and the table, when their paths are given. */
    void write(Path report, Path tsv, String title) throws IOException {
        if (report != null) {
            try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(report, StandardCharsets.UTF_8))) {
                out.println("# " + title);
                out.println("# " + summary().replace("\n", "\n# "));
                for (Map.Entry<String, Failure> e : failures.entrySet()) {
                    Failure f = e.getValue();
                    out.println();
                    out.println(e.getKey() + "  [" + f.kind + "]");
                    String[] lines = (f.kind.equals(VERIFY) ? f.detail : f.summary).split("\n");
                    for (int i = 0; i < Math.min(lines.length, 40); i++) out.println("    " + lines[i]);
                    if (f.kind.equals(VERIFY) && lines.length > 40) out.println("    ...");
                }
            }
        }
        if (tsv != null) {
            try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(tsv, StandardCharsets.UTF_8))) {
                failures.forEach((name, f) -> out.println(name + "\t" + f.kind + "\t" + f.summary));
            }
        }
    }

    /**
     * Compares two tables: prints each class that fails after but did not fail (in that kind)
     * before, and a count of those that failed before and no longer do. Returns the number of
     * new failures.
     */
    static int compare(Path before, Path after, int show) throws IOException {
        Map<String, String[]> old = read(before);
        Map<String, String[]> now = read(after);
        int newVerify = 0;
        int newOther = 0;
        int fixed = 0;
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, String[]> e : now.entrySet()) {
            String[] was = old.get(e.getKey());
            String kind = e.getValue()[0];
            if (was != null && (was[0].equals(kind) || kind.equals(OTHER))) continue;
            if (kind.equals(VERIFY)) newVerify++;
            else newOther++;
            lines.add("new " + kind + " failure: " + e.getKey() + ": " + e.getValue()[1]
                    + (was == null ? "" : "  (before: " + was[0] + ": " + was[1] + ")"));
        }
        for (String name : old.keySet()) {
            if (!now.containsKey(name)) fixed++;
        }
        for (int i = 0; i < Math.min(lines.size(), show); i++) System.out.println(lines.get(i));
        if (lines.size() > show) System.out.println("... and " + (lines.size() - show) + " more");
        System.out.println("compare: " + newVerify + " new verify errors, " + newOther + " new other failures, "
                + fixed + " failures gone");
        return newVerify + newOther;
    }

    private static Map<String, String[]> read(Path tsv) throws IOException {
        Map<String, String[]> rows = new TreeMap<>();
        for (String line : Files.readAllLines(tsv, StandardCharsets.UTF_8)) {
            if (line.isEmpty()) continue;
            String[] parts = line.split("\t", 3);
            rows.put(parts[0], new String[] {parts[1], parts.length > 2 ? parts[2] : ""});
        }
        return rows;
    }
}
