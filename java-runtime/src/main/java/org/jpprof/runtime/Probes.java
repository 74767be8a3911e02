package org.jpprof.runtime;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Calls probes' handlers (docs/profiling.md, "Probes"). A handler is named in jp.toml and found
 * through the class loader of the class whose instruction is probed, so it may live in the
 * application. While it runs, the thread's current context is a scratch context that nobody reads:
 * its own methods, when instrumented, count nowhere in the application's tree, and probes they
 * reach call no handler (a handler that probes itself would recurse). A handler that cannot be
 * found, or that throws, never reaches the program: it adds one to {@link #ERRORS} in the probed
 * context, and the first failure of each handler is reported on standard error.
 */
final class Probes {
    private Probes() {}

    /** The metric of failed handler calls. */
    static final String ERRORS = "probe-errors";

    /** Each caller class's handlers by name: a {@link Method}, or the Throwable that says why there is none. */
    private static final ClassValue<ConcurrentHashMap<String, Object>> HANDLERS =
            new ClassValue<ConcurrentHashMap<String, Object>>() {
                @Override
                protected ConcurrentHashMap<String, Object> computeValue(Class<?> type) {
                    return new ConcurrentHashMap<String, Object>();
                }
            };

    /** The handlers whose failure was reported. */
    private static final Set<String> REPORTED = Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());

    /**
     * Calls {@code handler} (a binary class name, a dot and a method name) for an instruction of
     * {@code caller} that runs in {@code ic}, with what the instruction is given.
     */
    static void call(IC ic, String handler, Class<?> caller, Object receiver, Object[] arguments) {
        RC rc = RC.current();
        if (rc.inProbe) return;
        ProbeContext context = new ProbeContext(ic);
        IC top = rc.top;
        rc.inProbe = true;
        rc.top = new IC(null, null);
        try {
            Object found = resolve(handler, caller);
            if (found instanceof Method) {
                ((Method) found).invoke(null, context, receiver, arguments);
            } else {
                failed(ic, handler, (Throwable) found);
            }
        } catch (InvocationTargetException e) {
            failed(ic, handler, e.getCause());
        } catch (Throwable e) { // the program must not see a handler's failure, whatever it is
            failed(ic, handler, e);
        } finally {
            rc.top = top;
            rc.inProbe = false;
            context.close();
        }
    }

    private static Object resolve(String handler, Class<?> caller) {
        ConcurrentHashMap<String, Object> known = HANDLERS.get(caller);
        Object found = known.get(handler);
        if (found == null) {
            found = lookUp(handler, caller.getClassLoader());
            known.putIfAbsent(handler, found);
        }
        return found;
    }

    /** The static method {@code handler} names, seen from {@code loader}, or why there is none. */
    private static Object lookUp(String handler, ClassLoader loader) {
        int dot = handler.lastIndexOf('.');
        try {
            Class<?> type = Class.forName(handler.substring(0, dot), true, loader);
            Method method = type.getDeclaredMethod(handler.substring(dot + 1), ProbeContext.class, Object.class,
                    Object[].class);
            if (!Modifier.isStatic(method.getModifiers())) {
                return new NoSuchMethodException(handler + " is not static");
            }
            method.setAccessible(true);
            return method;
        } catch (Exception | LinkageError e) {
            return e;
        }
    }

    private static void failed(IC ic, String handler, Throwable why) {
        ic.add(ERRORS, 1);
        if (REPORTED.add(handler)) Agents.warn("probe handler " + handler + " failed (counted in " + ERRORS + "): " + why);
    }
}
