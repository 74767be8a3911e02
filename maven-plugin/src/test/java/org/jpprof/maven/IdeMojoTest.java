package org.jpprof.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.StringReader;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.model.Plugin;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.util.xml.Xpp3DomBuilder;
import org.junit.jupiter.api.Test;

class IdeMojoTest {
    private static MavenProject project(String... plugins) throws Exception {
        Build build = new Build();
        for (int i = 0; i < plugins.length; i += 2) {
            Plugin plugin = new Plugin();
            plugin.setGroupId(plugins[i].substring(0, plugins[i].indexOf(':')));
            plugin.setArtifactId(plugins[i].substring(plugins[i].indexOf(':') + 1));
            plugin.setConfiguration(Xpp3DomBuilder.build(new StringReader(plugins[i + 1])));
            build.addPlugin(plugin);
        }
        Model model = new Model();
        model.setBuild(build);
        return new MavenProject(model);
    }

    @Test
    void main_class_should_come_from_the_jar_plugins_manifest_before_the_exec_plugin() throws Exception {
        String exec = "<configuration><mainClass>com.acme.Exec</mainClass></configuration>";
        String jar = "<configuration><archive><manifest><mainClass> com.acme.Main </mainClass></manifest></archive></configuration>";
        assertEquals("com.acme.Main", IdeMojo.configuredMainClass(project(
                "org.codehaus.mojo:exec-maven-plugin", exec, "org.apache.maven.plugins:maven-jar-plugin", jar)));
        assertEquals("com.acme.Exec", IdeMojo.configuredMainClass(project("org.codehaus.mojo:exec-maven-plugin", exec)));
    }

    @Test
    void no_main_class_configured_should_give_none() throws Exception {
        assertNull(IdeMojo.configuredMainClass(project()));
        assertNull(IdeMojo.configuredMainClass(project(
                "org.apache.maven.plugins:maven-jar-plugin", "<configuration><archive/></configuration>")));
    }
}
