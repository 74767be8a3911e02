package org.jpprof.junit;

import java.lang.reflect.Method;

/**
 * The test id of a test method, {@code com.acme.ParserTest#parses(String)}, shared by the
 * listeners of every framework; it needs no framework's classes.
 */
final class MethodIds {
    private MethodIds() {}

    /** {@code className#method(SimpleParameterTypes)}: {@code className} is the test class, which may inherit {@code method}. */
    static String of(String className, Method method) {
        StringBuilder out = new StringBuilder(className).append('#').append(method.getName()).append('(');
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            if (i > 0) out.append(", ");
            out.append(types[i].getSimpleName());
        }
        return out.append(')').toString();
    }
}
