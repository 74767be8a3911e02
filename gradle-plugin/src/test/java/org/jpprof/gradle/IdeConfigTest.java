package org.jpprof.gradle;

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
                        Arrays.asList(classes, runtime),
                        Collections.singletonList(runtime),
                        Arrays.asList("-Djp.output=/p/build/jp/profiles/ide/ide-%p.jpprof", "-Djp.agent=none"),
                        "com.acme.Main");
        String main = classes.getAbsolutePath() + File.pathSeparator + runtime.getAbsolutePath();
        assertTrue(text.contains("\nvm.options=-Djp.output=/p/build/jp/profiles/ide/ide-%p.jpprof -Djp.agent=none\n"), text);
        assertTrue(text.contains("\nmain.classpath=" + main + "\n"), text);
        assertTrue(text.contains("\ntest.classpath=" + runtime.getAbsolutePath() + "\n"), text);
        assertTrue(text.endsWith(" -cp " + main + " com.acme.Main\n"), text);
    }
}
