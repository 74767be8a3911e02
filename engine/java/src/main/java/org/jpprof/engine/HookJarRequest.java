package org.jpprof.engine;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A hooked copy of a library jar: the engine's hook request. In the copy, every constructor of one
 * class ends with a call of a static method that takes the new object, {@code hook(this)}; every
 * other entry is copied as it was, and the jar itself is never written. The copy goes into the
 * output directory under a name made of the jar's and a digest of its bytes and of the hook, so
 * that a copy in place is reused (docs/engine-jni.md).
 *
 * <pre>{@code
 * Path junit = engine.hookJar(new HookJarRequest(junitJar,
 *         "org.junit.runner.notification.RunNotifier", "org.jpprof.junit.JUnit4Hook", "attach",
 *         buildDir.resolve("jp/hooked")));
 * }</pre>
 *
 * <p>It crosses to the engine as the JSON of docs/engine-json.md, class names in their internal
 * form. Instances are immutable.
 */
public final class HookJarRequest {
    private final Path jar;
    private final String className;
    private final String hookClass;
    private final String hookMethod;
    private final Path outputDir;

    /**
     * A request.
     *
     * @param jar the library jar (made absolute against {@code user.dir})
     * @param className the binary name of the class whose constructors call the hook
     * @param hookClass the binary name of the class that declares the hook
     * @param hookMethod the hook: static, one parameter of type {@code className}, void
     * @param outputDir the directory of the copies (made absolute too)
     */
    public HookJarRequest(Path jar, String className, String hookClass, String hookMethod, Path outputDir) {
        this.jar = Objects.requireNonNull(jar, "jar");
        this.className = Objects.requireNonNull(className, "className");
        this.hookClass = Objects.requireNonNull(hookClass, "hookClass");
        this.hookMethod = Objects.requireNonNull(hookMethod, "hookMethod");
        this.outputDir = Objects.requireNonNull(outputDir, "outputDir");
    }

    /**
     * The request as the engine reads it.
     *
     * @return one JSON object, of the shape that docs/engine-json.md gives
     */
    public String toJson() {
        StringBuilder json = new StringBuilder(256).append("{\"jar\":");
        Json.writeString(json, jar.toAbsolutePath().toString());
        json.append(",\"class\":");
        Json.writeString(json, className.replace('.', '/'));
        json.append(",\"hookClass\":");
        Json.writeString(json, hookClass.replace('.', '/'));
        json.append(",\"hookMethod\":");
        Json.writeString(json, hookMethod);
        json.append(",\"outputDir\":");
        Json.writeString(json, outputDir.toAbsolutePath().toString());
        return json.append('}').toString();
    }

    @Override
    public String toString() {
        return toJson();
    }
}
