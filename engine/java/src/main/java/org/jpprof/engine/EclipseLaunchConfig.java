package org.jpprof.engine;

import java.io.File;

/**
 * An Eclipse launch configuration file, {@code <name>.launch}, which Eclipse finds in any project
 * of its workspace (and File > Import > Run/Debug > Launch Configurations imports).
 *
 * <p>It replaces the project's class path with JP's ({@code DEFAULT_CLASSPATH} false): the JRE,
 * then every entry as a user entry, the instrumented directories in place of the compiler's. The
 * paths are absolute: the class path names the build's dependencies, which live outside the
 * project (Gradle's cache, the local Maven repository), and a {@code ${workspace_loc}} path would
 * depend on the name Eclipse gave the project. Moving the project means running the build's IDE
 * task again. The tests configuration runs all the tests of the Eclipse project named like the
 * build's project (what Buildship and m2e name it by default).
 */
final class EclipseLaunchConfig {
    private static final String LAUNCHING = "org.eclipse.jdt.launching.";
    /** {@code IRuntimeClasspathEntry}: the type of a container and of an archive or folder. */
    private static final int CONTAINER = 4;
    private static final int ARCHIVE = 2;
    /** {@code IRuntimeClasspathEntry}: where an entry goes, the JRE's classes or the user's. */
    private static final int STANDARD_CLASSES = 1;
    private static final int USER_CLASSES = 3;

    private final IdeRunFiles files;

    EclipseLaunchConfig(IdeRunFiles files) {
        this.files = files;
    }

    String fileName(IdeRun run) {
        return run.fileName() + ".launch";
    }

    String render(IdeRun run) {
        StringBuilder out = new StringBuilder();
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
        out.append("<!-- ").append(IdeRunFiles.mark(files.producer)).append(" -->\n");
        String type = run.isTests() ? "org.eclipse.jdt.junit.launchconfig" : LAUNCHING + "localJavaApplication";
        out.append("<launchConfiguration type=\"").append(type).append("\">\n");
        out.append("    <listAttribute key=\"" + LAUNCHING + "CLASSPATH\">\n");
        entry(out, "containerPath=\"" + LAUNCHING + "JRE_CONTAINER\"", STANDARD_CLASSES, CONTAINER);
        for (File file : run.classpath) {
            String path = Xml.attribute(file.getAbsolutePath());
            entry(out, "externalArchive=\"" + path + "\"", USER_CLASSES, ARCHIVE);
        }
        out.append("    </listAttribute>\n");
        attribute(out, "booleanAttribute", LAUNCHING + "DEFAULT_CLASSPATH", "false");
        if (run.isTests()) {
            attribute(out, "stringAttribute", "org.eclipse.jdt.junit.CONTAINER", "=" + files.projectName);
            attribute(out, "stringAttribute", "org.eclipse.jdt.junit.TEST_KIND", testKind(run));
            attribute(out, "stringAttribute", LAUNCHING + "MAIN_TYPE", "");
        } else {
            attribute(out, "stringAttribute", LAUNCHING + "MAIN_TYPE", run.mainClass);
        }
        attribute(out, "stringAttribute", LAUNCHING + "PROJECT_ATTR", files.projectName);
        attribute(out, "stringAttribute", LAUNCHING + "VM_ARGUMENTS", Xml.commandLine(files.jvmArgs));
        attribute(out, "stringAttribute", LAUNCHING + "WORKING_DIRECTORY", files.projectDir.getAbsolutePath());
        out.append("</launchConfiguration>\n");
        return out.toString();
    }

    /** One class path entry: a small XML document of its own, stored as an attribute's value. */
    private static void entry(StringBuilder out, String location, int classpathProperty, int type) {
        String memento = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<runtimeClasspathEntry "
                + location + " path=\"" + classpathProperty + "\" type=\"" + type + "\"/>\n";
        out.append("        <listEntry value=\"").append(Xml.attribute(memento)).append("\"/>\n");
    }

    private static void attribute(StringBuilder out, String element, String key, String value) {
        out.append("    <").append(element).append(" key=\"").append(key).append("\" value=\"")
                .append(Xml.attribute(value)).append("\"/>\n");
    }

    /** Eclipse's JUnit 5 runner when JUnit Platform is on the class path, else its JUnit 4 one. */
    private static String testKind(IdeRun run) {
        for (File file : run.classpath) {
            String name = file.getName();
            if (name.startsWith("junit-jupiter") || name.startsWith("junit-platform")) {
                return "org.eclipse.jdt.junit.loader.junit5";
            }
        }
        return "org.eclipse.jdt.junit.loader.junit4";
    }
}
