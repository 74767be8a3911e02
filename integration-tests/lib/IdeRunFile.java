// Reads a run configuration that JP's IDE task wrote, the way the IDE would, for the IDE checks
// of jptest/plugin_checks.py: `java IdeRunFile.java FILE IDE-PROJECT-DIR`. FILE is an IntelliJ IDEA
// `.run.xml` or an Eclipse `.launch`; parsing it with the JDK's XML parser is the well-formedness
// check (exit 1 when it fails). Prints one line per item:
//   main CLASS         the main class (none for a tests configuration)
//   cp PATH            a class path entry, in class path order; for IntelliJ, only the entries
//                      the configuration puts in front of the module's class path
//   vm OPTION          a JVM option, split as the IDE splits its VM options line
// IntelliJ's $PROJECT_DIR$ is replaced by IDE-PROJECT-DIR.
import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

public class IdeRunFile {
    public static void main(String[] args) throws Exception {
        String projectDir = args[1];
        Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new File(args[0]))
                .getDocumentElement();
        String main = null;
        String vm = "";
        List<String> classpath = new ArrayList<>();
        if (root.getTagName().equals("component")) {
            Element configuration = (Element) root.getElementsByTagName("configuration").item(0);
            for (Element option : children(configuration, "option")) {
                String value = option.getAttribute("value").replace("$PROJECT_DIR$", projectDir);
                if (option.getAttribute("name").equals("MAIN_CLASS_NAME")) main = value;
                if (option.getAttribute("name").equals("VM_PARAMETERS")) vm = value;
            }
            // IntelliJ adds each entry to the front of the class path in turn.
            for (Element entry : children(children(configuration, "classpathModifications").get(0), "entry")) {
                classpath.add(entry.getAttribute("path").replace("$PROJECT_DIR$", projectDir));
            }
            Collections.reverse(classpath);
        } else {
            for (Element attribute : children(root, "stringAttribute")) {
                if (attribute.getAttribute("key").equals("org.eclipse.jdt.launching.MAIN_TYPE")) {
                    main = attribute.getAttribute("value");
                }
                if (attribute.getAttribute("key").equals("org.eclipse.jdt.launching.VM_ARGUMENTS")) {
                    vm = attribute.getAttribute("value");
                }
            }
            NodeList entries = root.getElementsByTagName("listEntry");
            for (int i = 0; i < entries.getLength(); i++) {
                String memento = ((Element) entries.item(i)).getAttribute("value");
                Element entry = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                        .parse(new ByteArrayInputStream(memento.getBytes(StandardCharsets.UTF_8)))
                        .getDocumentElement();
                if (!entry.getAttribute("externalArchive").isEmpty()) {
                    classpath.add(entry.getAttribute("externalArchive"));
                }
            }
        }
        if (main != null && !main.isEmpty()) System.out.println("main " + main);
        for (String entry : classpath) System.out.println("cp " + entry);
        for (String option : split(vm)) System.out.println("vm " + option);
    }

    private static List<Element> children(Element parent, String tag) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i) instanceof Element && ((Element) nodes.item(i)).getTagName().equals(tag)) {
                found.add((Element) nodes.item(i));
            }
        }
        return found;
    }

    /** Splits at spaces outside double quotes, which are dropped; {@code \"} is a quote kept. */
    private static List<String> split(String line) {
        List<String> options = new ArrayList<>();
        StringBuilder option = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                option.append('"');
                i++;
            } else if (c == '"') {
                quoted = !quoted;
                any = true;
            } else if (c == ' ' && !quoted) {
                if (any) options.add(option.toString());
                option.setLength(0);
                any = false;
            } else {
                option.append(c);
                any = true;
            }
        }
        if (any) options.add(option.toString());
        return options;
    }
}
