package org.jpprof.engine;

/**
 * The native methods of JP's engine, implemented by the JNI library {@code jp_jni} ({@code
 * libjp_jni.so}, {@code libjp_jni.dylib} or {@code jp_jni.dll}; engine/jni in the source tree).
 * Only {@link Engine} calls them, after it has loaded the library into this class's class loader.
 *
 * <p>Every method throws {@link EngineException} for every error and every panic in the engine.
 */
final class NativeEngine {
    private NativeEngine() {}

    /** Returns the engine's version, for example {@code 0.1.0}. */
    static native String version();

    /**
     * Runs one instrument request.
     *
     * @param requestJson the request as JSON (see {@link InstrumentRequest})
     * @return the outcome as JSON (see {@link InstrumentResult})
     */
    static native String instrument(String requestJson);

    /**
     * Runs one report request: merges the profiles and writes the report file.
     *
     * @param requestJson the request as JSON (see {@link ReportRequest})
     */
    static native void report(String requestJson);

    /**
     * Records a baseline of a run's profiles.
     *
     * @param requestJson the request as JSON (see {@link BaselineRequest})
     * @return the outcome as JSON: {@code {"tests": n, "methods": n}}
     */
    static native String baseline(String requestJson);

    /**
     * Checks a run's profiles against a baseline.
     *
     * @param requestJson the request as JSON (see {@link CheckRequest})
     * @return the outcome as JSON (see {@link CheckResult})
     */
    static native String check(String requestJson);

    /**
     * Writes the hooked copy of a jar, unless it is in place.
     *
     * @param requestJson the request as JSON (see {@link HookJarRequest})
     * @return the outcome as JSON: {@code {"jar": "...", "reused": true|false}}
     */
    static native String hookJar(String requestJson);

    /**
     * Resolves the settings of a {@link ClassRewriter} once (the configuration file is read now).
     *
     * @param settingsJson the settings as JSON (see {@link ClassRewriterSettings})
     * @return the number that names these settings in {@link #rewriteClass}
     */
    static native long classRewriter(String settingsJson);

    /**
     * Rewrites one class in memory.
     *
     * @param rewriter a number from {@link #classRewriter}
     * @param className the class's internal name
     * @param classBytes the class file
     * @return the encoded answer (see {@link ClassRewriter}), or {@code null} when the settings
     *     leave the class alone and there is nothing to say
     */
    static native byte[] rewriteClass(long rewriter, String className, byte[] classBytes);
}
