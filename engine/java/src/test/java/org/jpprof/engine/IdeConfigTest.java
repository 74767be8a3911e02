package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class IdeConfigTest {
    @Test
    void settings_are_one_line_each_with_absolute_paths() {
        File classes = new File("build/jp/classes/main");
        File runtime = new File("build/jp/runtime/jp-runtime.jar");
        String text =
                IdeConfig.render(
                        "gradle jpIdeSetup",
                        "gradle jpInstrument",
                        Arrays.asList(classes, runtime),
                        Collections.singletonList(runtime),
                        Arrays.asList("-Djp.output=/p/build/jp/profiles/ide/ide-%p.jpprof", "-Djp.agent=none"),
                        "com.acme.Main");
        String main = classes.getAbsolutePath() + File.pathSeparator + runtime.getAbsolutePath();
        assertTrue(text.startsWith("# JP: run configuration for an IDE (gradle jpIdeSetup).\n"), text);
        assertTrue(text.contains("# Run `gradle jpInstrument` again after a change"), text);
        assertTrue(text.contains("\nvm.options=-Djp.output=/p/build/jp/profiles/ide/ide-%p.jpprof -Djp.agent=none\n"), text);
        assertTrue(text.contains("\nmain.classpath=" + main + "\n"), text);
        assertTrue(text.contains("\ntest.classpath=" + runtime.getAbsolutePath() + "\n"), text);
        assertTrue(text.endsWith(" -cp " + main + " com.acme.Main\n"), text);
    }

    @Test
    void no_jvm_options_leave_no_double_space_in_the_command() {
        File classes = new File("/p/target/jp/classes");
        String text =
                IdeConfig.render(
                        "mvn jp:ide", "mvn compile jp:instrument",
                        Collections.singletonList(classes), Collections.singletonList(classes),
                        Collections.<String>emptyList(), "Main");
        assertTrue(text.contains("\nvm.options=\n"), text);
        assertTrue(text.contains("\ncommand=java -cp " + classes.getAbsolutePath() + " Main\n"), text);
    }
}
