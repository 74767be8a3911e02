package org.jpprof.engine;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An IntelliJ IDEA run configuration file, {@code .run/<name>.run.xml} in the IDE's project
 * directory, where IntelliJ IDEA finds shared run configurations (2020.1 and later).
 *
 * <p>IntelliJ builds the class path of an {@code Application} or {@code JUnit} configuration
 * itself, from the project's modules, and ignores a {@code -cp} among the VM options. What a
 * configuration can change is its {@code classpathModifications} (2021.1 and later): each entry
 * that is not an exclusion is put in front of the class path, the last entry first. So the entries
 * are JP's additions (instrumented directories, runtime jar) in reverse, and the instrumented
 * classes shadow the compiler's. No module is named: IntelliJ then uses the class path of the whole
 * project, which holds the right one whatever name IntelliJ gave the module.
 *
 * <p>Paths under the IDE's project directory are written with IntelliJ's {@code $PROJECT_DIR$}
 * macro, so the file still works when the project is moved or cloned elsewhere.
 */
final class IntellijRunConfig {
    private static final String MACRO = "$PROJECT_DIR$";

    private final IdeRunFiles files;
    private final Path root;

    IntellijRunConfig(IdeRunFiles files) {
        this.files = files;
        this.root = files.ideProjectDir.toPath().toAbsolutePath().normalize();
    }

    String fileName(IdeRun run) {
        return run.fileName() + ".run.xml";
    }

    String render(IdeRun run) {
        StringBuilder out = new StringBuilder();
        out.append("<!-- ").append(IdeRunFiles.mark(files.producer)).append(" -->\n");
        out.append("<component name=\"ProjectRunConfigurationManager\">\n");
        String type = run.isTests() ? "JUnit" : "Application";
        out.append("  <configuration default=\"false\" name=\"").append(Xml.attribute(run.name))
                .append("\" type=\"").append(type).append("\" factoryName=\"").append(type).append("\">\n");
        if (run.isTests()) {
            // "All in package" with the default package over the whole project: every test.
            option(out, "TEST_OBJECT", "package");
            option(out, "PACKAGE_NAME", "");
            option(out, "MAIN_CLASS_NAME", "");
            option(out, "METHOD_NAME", "");
        } else {
            option(out, "MAIN_CLASS_NAME", run.mainClass);
        }
        List<String> vmOptions = new ArrayList<>();
        for (String arg : files.jvmArgs) {
            vmOptions.add(macros(arg));
        }
        option(out, "VM_PARAMETERS", Xml.commandLine(vmOptions));
        option(out, "WORKING_DIRECTORY", path(files.projectDir));
        if (run.isTests()) {
            out.append("    <option name=\"TEST_SEARCH_SCOPE\">\n");
            out.append("      <value defaultName=\"wholeProject\" />\n");
            out.append("    </option>\n");
        }
        out.append("    <classpathModifications>\n");
        List<File> first = new ArrayList<>(run.added);
        Collections.reverse(first);
        for (File file : first) {
            out.append("      <entry path=\"").append(Xml.attribute(path(file))).append("\" />\n");
        }
        out.append("    </classpathModifications>\n");
        out.append("    <method v=\"2\">\n");
        out.append("      <option name=\"Make\" enabled=\"true\" />\n");
        beforeRun(out);
        out.append("    </method>\n");
        out.append("  </configuration>\n");
        out.append("</component>\n");
        return out.toString();
    }

    /** The build's own step that instruments again before each launch. */
    private void beforeRun(StringBuilder out) {
        if (!files.gradleTasks.isEmpty()) {
            out.append("      <option name=\"Gradle.BeforeRunTask\" enabled=\"true\" tasks=\"")
                    .append(Xml.attribute(String.join(" ", files.gradleTasks)))
                    .append("\" externalProjectPath=\"").append(Xml.attribute(path(files.ideProjectDir)))
                    .append("\" vmOptions=\"\" scriptParameters=\"\" />\n");
        } else if (files.mavenPom != null) {
            out.append("      <option name=\"Maven.BeforeRunTask\" enabled=\"true\" file=\"")
                    .append(Xml.attribute(path(files.mavenPom))).append("\" goal=\"")
                    .append(Xml.attribute(files.mavenGoals)).append("\" />\n");
        }
    }

    private static void option(StringBuilder out, String name, String value) {
        out.append("    <option name=\"").append(name).append("\" value=\"").append(Xml.attribute(value))
                .append("\" />\n");
    }

    /** {@code file} with {@code $PROJECT_DIR$} for the IDE's project directory when under it. */
    String path(File file) {
        Path absolute = file.toPath().toAbsolutePath().normalize();
        if (!absolute.startsWith(root)) {
            return absolute.toString().replace(File.separatorChar, '/');
        }
        String relative = root.relativize(absolute).toString().replace(File.separatorChar, '/');
        return relative.isEmpty() ? MACRO : MACRO + "/" + relative;
    }

    /** A JVM option with {@code $PROJECT_DIR$} for each path under the IDE's project directory. */
    private String macros(String arg) {
        String prefix = root + File.separator;
        return arg.replace(prefix, MACRO + "/");
    }
}
