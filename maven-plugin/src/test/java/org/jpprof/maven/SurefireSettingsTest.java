package org.jpprof.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.codehaus.plexus.util.xml.Xpp3DomBuilder;
import org.junit.jupiter.api.Test;

class SurefireSettingsTest {
    private static final String CLASSES = "<classesDirectory>${jp.classesDirectory}</classesDirectory>";

    @Test
    void theDocumentedConfigurationHidesNothing() throws Exception {
        assertEquals(Collections.<String>emptyList(), SurefireSettings.warnings(surefire(CLASSES), new Properties()));
        assertEquals(Collections.<String>emptyList(), SurefireSettings.warnings(
                surefire(CLASSES + "<argLine>@{argLine} -Xmx1g</argLine>"), new Properties()));
        assertEquals(Collections.<String>emptyList(), SurefireSettings.warnings(
                surefire(CLASSES + "<argLine>-Xmx1g @{jp.argLine}</argLine>"), new Properties()));
        assertEquals(Collections.<String>emptyList(), SurefireSettings.warnings(surefire(CLASSES + "<additionalClasspathElements>"
                + "<additionalClasspathElement>${jp.runtimeJar}</additionalClasspathElement>"
                + "</additionalClasspathElements>"), new Properties()));
    }

    @Test
    void anArgLineOfItsOwnHidesJpsOptions() throws Exception {
        List<String> warnings = SurefireSettings.warnings(surefire(CLASSES + "<argLine>-Xmx1g</argLine>"), new Properties());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("<argLine>@{argLine} -Xmx1g</argLine>"), warnings.get(0));
    }

    @Test
    void anExecutionsArgLineCountsToo() throws Exception {
        Plugin plugin = surefire(CLASSES);
        PluginExecution execution = new PluginExecution();
        execution.setConfiguration(Xpp3DomBuilder.build(new StringReader("<configuration><argLine>-ea</argLine></configuration>")));
        plugin.addExecution(execution);
        assertEquals(1, SurefireSettings.warnings(plugin, new Properties()).size());
    }

    @Test
    void anArgLineOnTheCommandLineHidesJpsOptions() throws Exception {
        Properties user = new Properties();
        user.setProperty("argLine", "-Xmx1g");
        List<String> warnings = SurefireSettings.warnings(surefire(CLASSES), user);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("-DargLine"), warnings.get(0));
    }

    @Test
    void classPathElementsWithoutTheRuntimeHideIt() throws Exception {
        List<String> warnings = SurefireSettings.warnings(surefire(CLASSES + "<additionalClasspathElements>"
                + "<additionalClasspathElement>lib/extra.jar</additionalClasspathElement>"
                + "</additionalClasspathElements>"), new Properties());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("${jp.runtimeJar}"), warnings.get(0));
    }

    @Test
    void withoutTheInstrumentedClassesTheTestsRunOnTheCompilers() throws Exception {
        assertEquals(Collections.<String>emptyList(), SurefireSettings.warnings(null, new Properties(), true));
        assertTrue(SurefireSettings.warnings(null, new Properties()).get(0).contains("the compiler's classes"));
        List<String> warnings = SurefireSettings.warnings(
                surefire("<classesDirectory>${project.build.outputDirectory}</classesDirectory>"), new Properties());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("${jp.classesDirectory}"), warnings.get(0));
    }

    private static Plugin surefire(String configuration) throws Exception {
        Plugin plugin = new Plugin();
        plugin.setArtifactId(SurefireSettings.ARTIFACT);
        plugin.setConfiguration(Xpp3DomBuilder.build(new StringReader("<configuration>" + configuration + "</configuration>")));
        return plugin;
    }
}
