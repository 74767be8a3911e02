package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class IdeRunFilesTest {
    private static final String OUTPUT = "-Djp.output=%s/build/jp/profiles/ide/ide-%%p.jpprof";

    /** A Gradle-like project in {@code root/my app}: a space in its path, main and test classes. */
    private static IdeRunFiles demo(Path root) {
        File project = root.resolve("my app").toFile();
        File classes = new File(project, "build/classes/java/main");
        File resources = new File(project, "build/resources/main");
        File testClasses = new File(project, "build/classes/java/test");
        File instrumented = new File(project, "build/jp/classes/main");
        File runtime = new File(project, "build/jp/runtime/jp-runtime-1.0.jar");
        File listeners = new File(project, "build/jp/runtime/jp-junit-1.0.jar");
        File junit = new File("/cache/junit-4.13.2.jar");
        return new IdeRunFiles("gradle jpIdeSetup", root.toFile(), project, "my app")
                .application(
                        "com.acme.Main",
                        Arrays.asList(classes, resources),
                        Arrays.asList(instrumented, resources, runtime))
                .tests(
                        Arrays.asList(testClasses, classes, resources, junit),
                        Arrays.asList(testClasses, instrumented, resources, junit, runtime, listeners))
                .jvmArgs(Arrays.asList(String.format(OUTPUT, project.getAbsolutePath()), "-Djp.agent=none"))
                .gradleBeforeRun(Arrays.asList(":jpInstrument", ":jpInstrumentTest"));
    }

    private static Element configuration(Path file) throws Exception {
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
        return (Element) document.getElementsByTagName("configuration").item(0);
    }

    private static String option(Element configuration, String name) {
        NodeList options = configuration.getElementsByTagName("option");
        for (int i = 0; i < options.getLength(); i++) {
            Element option = (Element) options.item(i);
            if (option.getAttribute("name").equals(name)) {
                return option.getAttribute("value");
            }
        }
        throw new AssertionError("no option " + name);
    }

    private static List<String> attributes(NodeList elements, String name) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < elements.getLength(); i++) {
            values.add(((Element) elements.item(i)).getAttribute(name));
        }
        return values;
    }

    /** An Eclipse launch file's string attributes and class path, as Eclipse reads them. */
    private static final class Launch {
        final Element root;
        final List<String> classpath = new ArrayList<>();

        Launch(Path file) throws Exception {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            root = factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
            for (String memento : attributes(root.getElementsByTagName("listEntry"), "value")) {
                Element entry = factory.newDocumentBuilder()
                        .parse(new ByteArrayInputStream(memento.getBytes(StandardCharsets.UTF_8)))
                        .getDocumentElement();
                classpath.add(entry.getAttribute("type") + ":" + entry.getAttribute("path") + ":"
                        + entry.getAttribute("externalArchive") + entry.getAttribute("containerPath"));
            }
        }

        String attribute(String key) {
            NodeList all = root.getChildNodes();
            for (int i = 0; i < all.getLength(); i++) {
                if (all.item(i) instanceof Element && ((Element) all.item(i)).getAttribute("key").equals(key)) {
                    return ((Element) all.item(i)).getAttribute("value");
                }
            }
            throw new AssertionError("no attribute " + key);
        }
    }

    @Test
    void intellij_application_should_put_the_instrumented_classes_and_runtime_first_relative_to_the_project(
            @TempDir Path root) throws Exception {
        demo(root).write();
        Element app = configuration(root.resolve(".run/JP my app Main.run.xml"));
        assertEquals("JP my app Main", app.getAttribute("name"));
        assertEquals("Application", app.getAttribute("type"));
        assertEquals("com.acme.Main", option(app, "MAIN_CLASS_NAME"));
        assertEquals(
                "\"-Djp.output=$PROJECT_DIR$/my app/build/jp/profiles/ide/ide-%p.jpprof\" -Djp.agent=none",
                option(app, "VM_PARAMETERS"));
        assertEquals("$PROJECT_DIR$/my app", option(app, "WORKING_DIRECTORY"));
        // IntelliJ puts each entry in front of the class path in turn: the last one ends up first.
        assertEquals(
                Arrays.asList("$PROJECT_DIR$/my app/build/jp/runtime/jp-runtime-1.0.jar",
                        "$PROJECT_DIR$/my app/build/jp/classes/main"),
                attributes(app.getElementsByTagName("entry"), "path"));
        assertEquals(0, app.getElementsByTagName("module").getLength(), "no module: the project's class path");
        Element gradle = (Element) app.getElementsByTagName("method").item(0).getChildNodes().item(3);
        assertEquals("Gradle.BeforeRunTask", gradle.getAttribute("name"));
        assertEquals(":jpInstrument :jpInstrumentTest", gradle.getAttribute("tasks"));
        assertEquals("$PROJECT_DIR$", gradle.getAttribute("externalProjectPath"));
    }

    @Test
    void intellij_tests_should_run_every_test_with_the_listeners_and_maven_before_launch(@TempDir Path root)
            throws Exception {
        File pom = root.resolve("pom.xml").toFile();
        demo(root).mavenBeforeRun(pom, "compile jp:instrument").gradleBeforeRun(Collections.<String>emptyList())
                .write();
        Element tests = configuration(root.resolve(".run/JP my app tests.run.xml"));
        assertEquals("JUnit", tests.getAttribute("type"));
        assertEquals("package", option(tests, "TEST_OBJECT"));
        assertEquals("", option(tests, "PACKAGE_NAME"));
        Element scope = (Element) tests.getElementsByTagName("value").item(0);
        assertEquals("wholeProject", scope.getAttribute("defaultName"));
        assertEquals(
                Arrays.asList("$PROJECT_DIR$/my app/build/jp/runtime/jp-junit-1.0.jar",
                        "$PROJECT_DIR$/my app/build/jp/runtime/jp-runtime-1.0.jar",
                        "$PROJECT_DIR$/my app/build/jp/classes/main"),
                attributes(tests.getElementsByTagName("entry"), "path"));
        Element maven = (Element) tests.getElementsByTagName("method").item(0).getChildNodes().item(3);
        assertEquals("Maven.BeforeRunTask", maven.getAttribute("name"));
        assertEquals("$PROJECT_DIR$/pom.xml", maven.getAttribute("file"));
        assertEquals("compile jp:instrument", maven.getAttribute("goal"));
    }

    @Test
    void eclipse_launches_should_replace_the_class_path_with_jps_absolute_one(@TempDir Path root) throws Exception {
        demo(root).write();
        String project = root.resolve("my app").toString();
        Launch app = new Launch(root.resolve(".run/JP my app Main.launch"));
        assertEquals("org.eclipse.jdt.launching.localJavaApplication", app.root.getAttribute("type"));
        assertEquals("com.acme.Main", app.attribute("org.eclipse.jdt.launching.MAIN_TYPE"));
        assertEquals("my app", app.attribute("org.eclipse.jdt.launching.PROJECT_ATTR"));
        assertEquals("false", app.attribute("org.eclipse.jdt.launching.DEFAULT_CLASSPATH"));
        assertEquals(
                "\"-Djp.output=" + project + "/build/jp/profiles/ide/ide-%p.jpprof\" -Djp.agent=none",
                app.attribute("org.eclipse.jdt.launching.VM_ARGUMENTS"));
        assertEquals(
                Arrays.asList("4:1:org.eclipse.jdt.launching.JRE_CONTAINER",
                        "2:3:" + project + "/build/jp/classes/main",
                        "2:3:" + project + "/build/resources/main",
                        "2:3:" + project + "/build/jp/runtime/jp-runtime-1.0.jar"),
                app.classpath);

        Launch tests = new Launch(root.resolve(".run/JP my app tests.launch"));
        assertEquals("org.eclipse.jdt.junit.launchconfig", tests.root.getAttribute("type"));
        assertEquals("=my app", tests.attribute("org.eclipse.jdt.junit.CONTAINER"));
        assertEquals("org.eclipse.jdt.junit.loader.junit4", tests.attribute("org.eclipse.jdt.junit.TEST_KIND"));
        assertEquals(7, tests.classpath.size());
        assertEquals("2:3:/cache/junit-4.13.2.jar", tests.classpath.get(4));
    }

    @Test
    void a_file_changed_in_the_ide_should_be_left_alone_and_jps_own_rewritten(@TempDir Path root) throws Exception {
        IdeRunFiles files = demo(root);
        files.write();
        Path edited = root.resolve(".run/JP my app Main.run.xml");
        Path own = root.resolve(".run/JP my app tests.launch");
        String saved = "<component name=\"ProjectRunConfigurationManager\"><configuration/></component>\n";
        Files.write(edited, saved.getBytes(StandardCharsets.UTF_8));
        String stale = new String(Files.readAllBytes(own), StandardCharsets.UTF_8).replace("-Djp.agent=none", "");
        Files.write(own, stale.getBytes(StandardCharsets.UTF_8));

        List<String> report = files.write();

        assertEquals(saved, new String(Files.readAllBytes(edited), StandardCharsets.UTF_8));
        assertTrue(report.contains(edited + ": left alone, it was changed in the IDE (it lacks JP's mark);"
                + " delete it to have JP's again"), report.toString());
        assertTrue(new String(Files.readAllBytes(own), StandardCharsets.UTF_8).contains("-Djp.agent=none"));
        assertTrue(report.contains(own + ": written"), report.toString());
        assertTrue(report.contains(root.resolve(".run/JP my app tests.run.xml") + ": up to date"), report.toString());
    }

    @Test
    void no_main_class_should_give_the_tests_configurations_only(@TempDir Path root) throws IOException {
        File project = root.toFile();
        new IdeRunFiles("mvn jp:ide", project, project, "app")
                .tests(Collections.<File>emptyList(), Collections.singletonList(new File(project, "junit-jupiter-api-5.jar")))
                .write();
        try (java.util.stream.Stream<Path> files = Files.list(root.resolve(".run"))) {
            List<String> names = new ArrayList<>();
            files.forEach(file -> names.add(file.getFileName().toString()));
            Collections.sort(names);
            assertEquals(Arrays.asList("JP app tests.launch", "JP app tests.run.xml"), names);
        }
        String launch = new String(Files.readAllBytes(root.resolve(".run/JP app tests.launch")), StandardCharsets.UTF_8);
        assertTrue(launch.contains("org.eclipse.jdt.junit.loader.junit5"), launch);
        assertFalse(launch.contains("MAIN_TYPE\" value=\"com"), launch);
    }
}
