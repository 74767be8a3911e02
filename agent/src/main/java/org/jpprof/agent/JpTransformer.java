package org.jpprof.agent;

import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.jpprof.engine.ClassRewriter;
import org.jpprof.engine.EngineException;

/**
 * Hands each class the JVM loads to the engine, and the rewritten class back. JDK classes (proxy
 * classes included) and JP's own are left alone before the engine is asked; the engine's class filter (the settings' patterns
 * and the classes left uninstrumented by default) decides about the rest, as for
 * {@code jp instrument}. It never throws into the JVM: whatever goes wrong leaves the class as it
 * was, with one {@code jp:} line on stderr.
 */
final class JpTransformer implements ClassFileTransformer {
    /** Packages whose classes are never rewritten: the JDK's, and JP's own. */
    private static final String[] LEFT_ALONE = {
        "java/", "jdk/", "sun/",
        "org/jpprof/runtime/", "org/jpprof/engine/", "org/jpprof/agent/", "org/jpprof/junit/",
    };

    /** The start of the simple names of {@code java.lang.reflect.Proxy}'s classes. */
    private static final String PROXY_PREFIX = "$Proxy";

    private final ClassRewriter rewriter;
    private final PrintStream err;
    /** The bootstrap loader's children that load the JDK: the platform (or extension) loaders. */
    private final Set<ClassLoader> jdkLoaders;
    /**
     * Set while this thread is in the engine: classes that the facade loads meanwhile are its
     * own, and a second call would only wait on the first.
     */
    private final ThreadLocal<Boolean> busy = new ThreadLocal<>();

    JpTransformer(ClassRewriter rewriter, PrintStream err) {
        this.rewriter = rewriter;
        this.err = err;
        Set<ClassLoader> loaders = Collections.newSetFromMap(new IdentityHashMap<>());
        for (ClassLoader loader = ClassLoader.getSystemClassLoader().getParent(); loader != null;
                loader = loader.getParent()) {
            loaders.add(loader);
        }
        this.jdkLoaders = loaders;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined,
            ProtectionDomain domain, byte[] classBytes) {
        if (className == null || redefined != null || loader == null
                || jdkLoaders.contains(loader) || leftAlone(className) || busy.get() != null) {
            return null;
        }
        busy.set(Boolean.TRUE);
        try {
            ClassRewriter.RewrittenClass rewritten = rewriter.rewrite(className, classBytes);
            if (rewritten == null) {
                return null;
            }
            for (String warning : rewritten.warnings()) {
                err.println("jp: " + warning);
            }
            return rewritten.bytes();
        } catch (EngineException e) {
            err.println("jp: " + e.getMessage() + "; the class is left as it was");
            return null;
        } catch (Throwable e) {
            // A bug of JP's must not stop the class from loading.
            err.println("jp: " + className.replace('/', '.') + ": " + e
                    + "; the class is left as it was");
            return null;
        } finally {
            busy.remove();
        }
    }

    /**
     * Whether the class (internal name) is the JDK's or JP's, or a proxy class that
     * {@code java.lang.reflect.Proxy} generated (the JDK reserves simple names that start with
     * {@code $Proxy} for them): proxies are the JDK's code, never instrumented at build time.
     */
    static boolean leftAlone(String className) {
        for (String prefix : LEFT_ALONE) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return className.startsWith(PROXY_PREFIX, className.lastIndexOf('/') + 1);
    }
}
