package org.jpprof.junit;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Test ids as profiles name tests (see docs/profile-format.md): {@code com.acme.ParserTest} for a
 * test class, {@code com.acme.ParserTest#largeFile()} for a test method, and one
 * {@code " > " + display name} per level below the method for the invocations of parameterized,
 * repeated and dynamic tests ({@code com.acme.ParserTest#parses(String) > [2] "a,b"}).
 */
final class TestIds {
    private TestIds() {}

    /** The test id of {@code identifier}, or null for what is neither a class nor in a method (an engine). */
    static String of(TestIdentifier identifier, TestPlan plan) {
        List<TestIdentifier> path = new ArrayList<TestIdentifier>();
        for (Optional<TestIdentifier> at = Optional.of(identifier); at.isPresent(); at = plan.getParent(at.get())) {
            path.add(0, at.get());
        }
        for (int i = 0; i < path.size(); i++) {
            TestSource source = path.get(i).getSource().orElse(null);
            if (source instanceof MethodSource) {
                StringBuilder id = new StringBuilder(method((MethodSource) source));
                for (TestIdentifier below : path.subList(i + 1, path.size())) {
                    id.append(" > ").append(below.getDisplayName());
                }
                return id.toString();
            }
        }
        TestSource own = identifier.getSource().orElse(null);
        return own instanceof ClassSource ? ((ClassSource) own).getClassName() : null;
    }

    /** {@code class#method(SimpleParameterTypes)}, the parameters as Jupiter displays them. */
    static String method(MethodSource source) {
        Method method = null;
        try {
            method = source.getJavaMethod();
        } catch (RuntimeException | LinkageError e) {
            // An engine's method that Java cannot find (a JUnit 4 "test[0]"), or JUnit Platform
            // before 1.7: the names in the source do.
        }
        if (method != null) return MethodIds.of(source.getClassName(), method);
        return source.getClassName() + '#' + source.getMethodName() + '(' + parameterNames(source) + ')';
    }

    private static String parameterNames(MethodSource source) {
        StringBuilder out = new StringBuilder();
        String names = source.getMethodParameterTypes();
        if (names == null || names.isEmpty()) return "";
        for (String name : names.split(",")) {
            String trimmed = name.trim();
            if (out.length() > 0) out.append(", ");
            out.append(trimmed.substring(Math.max(trimmed.lastIndexOf('.'), trimmed.lastIndexOf('$')) + 1));
        }
        return out.toString();
    }
}
