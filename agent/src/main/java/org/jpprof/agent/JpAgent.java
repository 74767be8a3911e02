package org.jpprof.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.jar.JarFile;
import org.jpprof.engine.ClassRewriter;
import org.jpprof.engine.Engine;
import org.jpprof.engine.EngineException;
import org.jpprof.engine.RuntimeJar;

/**
 * JP's load-time agent: {@code java -javaagent:jp-agent.jar=OPTIONS ...} ({@link AgentOptions}).
 * At start it puts JP's runtime on the boot class path, so that the classes of every class loader
 * see the same runtime, loads the engine and resolves the settings once, then rewrites each class
 * as it loads ({@link JpTransformer}). A problem at start is one {@code jp:} line on stderr, and
 * the program runs unprofiled: the agent never stops the program.
 *
 * <p>Where the JVM lets it ({@link Instrumentation#isNativeMethodPrefixSupported()}, with the jar's
 * {@code Can-Set-Native-Method-Prefix}), native methods become contexts too: the engine renames each
 * native {@code m} to {@code NATIVE_PREFIX + m} and puts a Java method {@code m} that calls it in its
 * place, and the prefix set here makes the JVM bind the renamed native to {@code m}'s
 * implementation.
 */
public final class JpAgent {
    /** The engine's prefix of renamed natives ({@code jp_rewrite::injected::NATIVE_PREFIX}). */
    static final String NATIVE_PREFIX = "$jp$";

    private JpAgent() {}

    /**
     * The entry point of {@code -javaagent}.
     *
     * @param options the text after {@code =}, or {@code null}
     * @param instrumentation the JVM's
     */
    public static void premain(String options, Instrumentation instrumentation) {
        start(options, instrumentation, System.err);
    }

    /**
     * The entry point of an agent attached to a running JVM: classes loaded from then on are
     * instrumented, those loaded already stay as they are.
     *
     * @param options the agent's options, or {@code null}
     * @param instrumentation the JVM's
     */
    public static void agentmain(String options, Instrumentation instrumentation) {
        start(options, instrumentation, System.err);
    }

    static void start(String text, Instrumentation instrumentation, PrintStream err) {
        try {
            AgentOptions options = AgentOptions.parse(text);
            Path cache = options.cacheOff() ? null
                    : options.cacheDir() != null ? options.cacheDir().toAbsolutePath()
                    : Engine.privateCacheDirectory("agent");
            Path home = cache != null ? cache : Engine.privateCacheDirectory("agent");
            // Before the first rewritten class loads: it links against the runtime.
            Path runtime = RuntimeJar.extractTo(home.resolve("runtime"));
            instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(runtime.toFile()));
            boolean natives = instrumentation.isNativeMethodPrefixSupported();
            ClassRewriter rewriter = Engine.load().classRewriter(options.settings(cache, natives));
            JpTransformer transformer = new JpTransformer(rewriter, err);
            instrumentation.addTransformer(transformer, false);
            if (natives) {
                // Before any class it rewrote calls a native: natives bind at their first call.
                instrumentation.setNativeMethodPrefix(transformer, NATIVE_PREFIX);
            }
        } catch (IOException | RuntimeException | LinkageError e) {
            err.println("jp: the load-time agent is off, the program runs unprofiled: "
                    + describe(e));
        }
    }

    /** JP's own exceptions say everything in their message; others need their class too. */
    private static String describe(Throwable e) {
        boolean ours = e instanceof IllegalArgumentException || e instanceof EngineException;
        return ours && e.getMessage() != null ? e.getMessage() : e.toString();
    }
}
