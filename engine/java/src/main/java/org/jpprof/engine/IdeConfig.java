package org.jpprof.engine;

import java.io.File;
import java.util.Collection;
import java.util.List;

/**
 * The IDE settings that the build plugins print ({@code gradle jpIdeSetup}, {@code mvn jp:ide}):
 * {@code key=value} lines that a person can copy into a run configuration and a script can read,
 * with comments saying where each value goes.
 */
public final class IdeConfig {
    private IdeConfig() {}

    /**
     * Renders the IDE settings.
     *
     * @param producer the command that printed them, for the header ({@code gradle jpIdeSetup})
     * @param refresh the command that instruments again after a change ({@code gradle jpInstrument})
     * @param mainClasspath the application's instrumented class path
     * @param testClasspath the tests' instrumented class path
     * @param jvmArgs the JVM options
     * @param mainClass the main class shown in the command line
     * @return the text, ending with a line break
     */
    public static String render(
            String producer,
            String refresh,
            Collection<File> mainClasspath,
            Collection<File> testClasspath,
            List<String> jvmArgs,
            String mainClass) {
        String vmOptions = String.join(" ", jvmArgs);
        String main = join(mainClasspath);
        StringBuilder out = new StringBuilder();
        out.append("# JP: run configuration for an IDE (").append(producer).append(").\n");
        out.append("# In the run configuration, use this class path instead of the module's: it has\n");
        out.append("# the instrumented classes in place of the compiler output, and JP's runtime jar.\n");
        out.append("# Run `").append(refresh)
                .append("` again after a change (or let the IDE run it before launch).\n");
        out.append("vm.options=").append(vmOptions).append('\n');
        out.append("main.classpath=").append(main).append('\n');
        out.append("test.classpath=").append(join(testClasspath)).append('\n');
        out.append("# The same from a shell:\n");
        out.append("command=java ")
                .append(vmOptions)
                .append(vmOptions.isEmpty() ? "" : " ")
                .append("-cp ")
                .append(main)
                .append(' ')
                .append(mainClass)
                .append('\n');
        return out.toString();
    }

    private static String join(Collection<File> files) {
        StringBuilder out = new StringBuilder();
        for (File file : files) {
            if (out.length() > 0) {
                out.append(File.pathSeparatorChar);
            }
            out.append(file.getAbsolutePath());
        }
        return out.toString();
    }
}
