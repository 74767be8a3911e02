import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line shared by {@code VerifyClasses} and {@code ClassFileVerify}:
 * {@code [--cp DEPS] [--separate] [--report FILE] [--tsv FILE] [--title TEXT] ROOT...}.
 */
final class VerifyArgs {
    final List<Path> deps = new ArrayList<>();
    final List<Path> roots = new ArrayList<>();
    boolean separate;
    Path report;
    Path tsv;
    String title;

    private VerifyArgs(String title) {
        this.title = title;
    }

    /** Parses {@code args}; prints {@code usage} and exits with 2 when they are wrong. */
    static VerifyArgs parse(String[] args, String program, String usage) {
        VerifyArgs parsed = new VerifyArgs(program);
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--cp" -> parsed.deps.addAll(ClassRoots.pathList(value(args, ++i, usage)));
                case "--separate" -> parsed.separate = true;
                case "--report" -> parsed.report = Path.of(value(args, ++i, usage));
                case "--tsv" -> parsed.tsv = Path.of(value(args, ++i, usage));
                case "--title" -> parsed.title = value(args, ++i, usage);
                default -> {
                    if (args[i].startsWith("--")) fail(usage);
                    parsed.roots.add(Path.of(args[i]));
                }
            }
        }
        if (parsed.roots.isEmpty()) fail(usage);
        return parsed;
    }

    private static String value(String[] args, int i, String usage) {
        if (i >= args.length) fail(usage);
        return args[i];
    }

    static void fail(String usage) {
        System.err.println(usage);
        System.exit(2);
    }
}
