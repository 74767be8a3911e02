package org.jpprof.engine;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * JP's engine, in this JVM: loads the native library once per class loader and runs requests.
 *
 * <pre>{@code
 * Engine engine = Engine.load();
 * InstrumentResult result = engine.instrument(InstrumentRequest.builder()
 *         .input(classes).output(instrumented).build());
 * for (InstrumentResult.Diagnostic error : result.errors()) {
 *     log.error(error.toString());
 * }
 * engine.report(ReportRequest.builder()
 *         .profiles(profiles).format(ReportRequest.Format.HTML).out(html).build());
 * }</pre>
 *
 * <p>The engine is thread-safe: requests may run at once from several threads.
 */
public final class Engine {
    private static final String SNAPSHOT = "-SNAPSHOT";

    /** The engine of this class loader, once loaded. */
    private static Engine loaded;

    private final Path library;
    private final String version;

    private Engine(Path library, String version) {
        this.library = library;
        this.version = version;
    }

    /**
     * Loads the native library into this class loader, the first time, and checks that its
     * version is the one this facade needs ({@link #engineVersionFor(String)}). Later calls return
     * the same engine. Where the library comes from is described in docs/engine-jni.md.
     *
     * @return the engine
     * @throws EngineException if the library cannot be found, extracted or loaded, or its version
     *     does not match, with the file and the versions concerned
     */
    public static synchronized Engine load() {
        if (loaded == null) {
            Path library = NativeLibrary.load();
            String actual;
            try {
                actual = NativeEngine.version();
            } catch (UnsatisfiedLinkError e) {
                throw new EngineException(
                        library + " is not JP's engine library: " + e.getMessage(), e);
            }
            checkVersion(library, facadeVersion(), actual);
            loaded = new Engine(library, actual);
        }
        return loaded;
    }

    /**
     * The engine's version, as the native library reports it, for example {@code 0.1.0}.
     *
     * @return the version
     */
    public String version() {
        return version;
    }

    /**
     * The native library file that this class loader loaded.
     *
     * @return the file
     */
    public Path library() {
        return library;
    }

    /**
     * Instruments classes. Inputs that fail are reported in the result's
     * {@linkplain InstrumentResult#errors() errors}, and the other inputs are still instrumented.
     *
     * @param request what to instrument, and where to
     * @return what the engine did
     * @throws EngineException if the request as a whole cannot be carried out (for example the
     *     output directory cannot be created), or the engine failed; the message names the file
     */
    public InstrumentResult instrument(InstrumentRequest request) {
        Objects.requireNonNull(request, "request");
        String outcome = NativeEngine.instrument(request.toJson());
        if (outcome == null) {
            throw new EngineException("JP's engine " + library + " returned no outcome");
        }
        try {
            return InstrumentResult.fromJson(outcome);
        } catch (IllegalArgumentException e) {
            throw new EngineException("JP's engine " + library + " returned an outcome this "
                    + "jp-engine cannot read: " + e.getMessage(), e);
        }
    }

    /**
     * Merges profiles by calling context and writes one report, atomically: the file is complete,
     * or not written at all.
     *
     * @param request the profiles, the format and the report file
     * @throws EngineException if a profile cannot be read (the message names every such file, with
     *     the line of the problem), or the report file cannot be written (the message names it)
     */
    public void report(ReportRequest request) {
        Objects.requireNonNull(request, "request");
        NativeEngine.report(request.toJson());
    }

    /**
     * Records the exact counts of a run's tests and methods in a baseline file, atomically.
     *
     * @param request the profiles, the file and the instrumentation settings
     * @return how many tests and methods were recorded, as {@code "n tests and m methods"}
     * @throws EngineException if a profile cannot be read or the file cannot be written (the message
     *     names the file)
     */
    public String baseline(BaselineRequest request) {
        Objects.requireNonNull(request, "request");
        Map<String, Object> outcome =
                GateJson.object(outcome(NativeEngine.baseline(request.toJson())));
        return GateJson.count(outcome, "tests") + " tests and " + GateJson.count(outcome, "methods")
                + " methods";
    }

    /**
     * Compares a run's profiles with a baseline. A regression is a result, not an exception.
     *
     * @param request the profiles, the baseline and the tolerances
     * @return what the comparison found
     * @throws EngineException if no comparison can be made: no baseline (the message says how to
     *     record one), a malformed one (with its line), one recorded with other settings (naming
     *     them), or unreadable profiles
     */
    public CheckResult check(CheckRequest request) {
        Objects.requireNonNull(request, "request");
        String outcome = outcome(NativeEngine.check(request.toJson()));
        try {
            return CheckResult.fromJson(outcome);
        } catch (IllegalArgumentException e) {
            throw new EngineException("JP's engine " + library + " returned an outcome this "
                    + "jp-engine cannot read: " + e.getMessage(), e);
        }
    }

    /**
     * Writes a copy of a library jar in which the constructors of one class call a static hook,
     * unless that copy is in place already; the jar itself is never written.
     *
     * @param request the jar, the class, the hook and the directory of the copies
     * @return the copy
     * @throws EngineException if the jar cannot be read, lacks the class or the class cannot be
     *     rewritten, or the copy cannot be written; the message names the file
     */
    public Path hookJar(HookJarRequest request) {
        Objects.requireNonNull(request, "request");
        Object jar = GateJson.object(outcome(NativeEngine.hookJar(request.toJson()))).get("jar");
        if (!(jar instanceof String)) {
            throw new EngineException("JP's engine " + library + " returned a hook outcome without"
                    + " a jar: " + jar);
        }
        return Paths.get((String) jar);
    }

    /**
     * Makes a rewriter of single classes, for a load-time agent. The settings are resolved now,
     * once: the configuration file is read here, not per class.
     *
     * @param settings the analysis, the patterns, the configuration file and the cache directory
     * @return the rewriter
     * @throws EngineException if the settings cannot be used (a bad pattern, an unreadable or
     *     invalid configuration file), naming the problem
     */
    public ClassRewriter classRewriter(ClassRewriterSettings settings) {
        Objects.requireNonNull(settings, "settings");
        return new ClassRewriter(NativeEngine.classRewriter(settings.toJson()));
    }

    /**
     * A directory of this user's own for JP's files of one kind, as the engine's library gets
     * (docs/engine-jni.md, "The cache directory"): {@code jp/<name>} in the system's place for a
     * user's caches, else {@code ${java.io.tmpdir}/jp-<name>-<user>}; created when missing (mode
     * {@code 0700} where there are POSIX permissions), and refused when another user owns it or
     * may write to it, so that no one else can plant files that this user's JVMs then load.
     *
     * @param name the kind of files, such as {@code agent}
     * @return the directory, absolute
     * @throws EngineException if no such directory can be used, naming each one tried and why
     */
    public static Path privateCacheDirectory(String name) {
        List<String> tried = new ArrayList<>();
        Path directory = NativeLibrary.defaultPrivateDirectory(name, tried);
        if (directory == null) {
            throw new EngineException("no private directory for JP's " + name + " files: tried "
                    + String.join(", ", tried));
        }
        return directory;
    }

    private String outcome(String outcome) {
        if (outcome == null) {
            throw new EngineException("JP's engine " + library + " returned no outcome");
        }
        return outcome;
    }

    /**
     * The version of this jp-engine jar, for example {@code 0.1.0} or {@code 0.1.0-SNAPSHOT}.
     * Build plugins check it against their own with {@link #checkPluginVersion}.
     *
     * @return the version
     * @throws EngineException if the jar has lost its version resource
     */
    public static String facadeVersion() {
        return VersionResource.read(Engine.class, "version.properties", "jp-engine");
    }

    /**
     * Fails unless this jp-engine is the version of the build plugin that calls it: a build can
     * put another version on the plugin's class path, and the engine and the runtime jar it carries
     * must be the plugin's.
     *
     * @param plugin the calling plugin
     * @param pluginVersion the plugin's version
     * @throws EngineException naming both versions and where the plugin's dependencies are
     *     declared, or if this jar has lost its version ({@link #facadeVersion()})
     */
    public static void checkPluginVersion(BuildPlugin plugin, String pluginVersion) {
        Objects.requireNonNull(plugin, "plugin");
        String facade = facadeVersion();
        if (!facade.equals(pluginVersion)) {
            throw new EngineException(plugin.versionMismatch(facade, pluginVersion));
        }
    }

    /**
     * Fails unless the library's version is the one this facade needs.
     *
     * @param library the library file, for the message
     * @param facadeVersion this facade's version
     * @param engineVersion the library's version
     * @throws EngineException naming both versions and the library
     */
    static void checkVersion(Path library, String facadeVersion, String engineVersion) {
        String expected = engineVersionFor(facadeVersion);
        if (!expected.equals(engineVersion)) {
            throw new EngineException("JP's engine library " + library + " is version "
                    + engineVersion + ", but this jp-engine " + facadeVersion + " needs engine "
                    + expected + " (jars of different JP versions on one class path?)");
        }
    }

    /**
     * The engine version that a facade version needs: the same version, less a {@code -SNAPSHOT}
     * suffix (Maven's name for a version under development; cargo's versions have none).
     *
     * @param facadeVersion the facade's version
     * @return the engine version
     */
    static String engineVersionFor(String facadeVersion) {
        return facadeVersion.endsWith(SNAPSHOT)
                ? facadeVersion.substring(0, facadeVersion.length() - SNAPSHOT.length())
                : facadeVersion;
    }
}
