package org.jpprof.engine;

import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One run configuration to write for both IDEs: the application's main class, or the whole test
 * suite when there is none.
 */
final class IdeRun {
    /** The configuration's name, {@code JP app Main}; also the file's name. */
    final String name;
    /** The main class, or {@code null} for the tests. */
    final String mainClass;
    /** The whole class path, as JP runs it: what an Eclipse configuration lists. */
    final List<File> classpath;
    /**
     * What JP's class path has that the build's has not (the instrumented directories, the
     * runtime jar...), in class path order: what an IntelliJ configuration puts in front of the
     * module's class path, whose classes these shadow.
     */
    final List<File> added;

    private IdeRun(String name, String mainClass, Collection<File> original, Collection<File> classpath) {
        this.name = name;
        this.mainClass = mainClass;
        this.classpath = Collections.unmodifiableList(new ArrayList<>(classpath));
        Set<File> before = new LinkedHashSet<>();
        for (File file : original) {
            before.add(file.getAbsoluteFile());
        }
        List<File> extra = new ArrayList<>();
        for (File file : classpath) {
            if (!before.contains(file.getAbsoluteFile())) {
                extra.add(file);
            }
        }
        this.added = Collections.unmodifiableList(extra);
    }

    static IdeRun application(String project, String mainClass, Collection<File> original, Collection<File> classpath) {
        String simpleName = mainClass.substring(mainClass.lastIndexOf('.') + 1);
        return new IdeRun("JP " + project + " " + simpleName, mainClass, original, classpath);
    }

    static IdeRun tests(String project, Collection<File> original, Collection<File> classpath) {
        return new IdeRun("JP " + project + " tests", null, original, classpath);
    }

    boolean isTests() {
        return mainClass == null;
    }

    /** The name, with what a file name should not hold replaced by {@code _}. */
    String fileName() {
        return name.replaceAll("[^A-Za-z0-9 ._-]", "_");
    }
}
