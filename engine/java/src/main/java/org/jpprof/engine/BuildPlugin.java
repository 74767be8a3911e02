package org.jpprof.engine;

/**
 * The build plugins that call this facade, with the words their users know: the class path the
 * plugin and jp-engine are loaded from, and where its dependencies are declared. A build can put
 * another version of jp-engine there, which {@link Engine#checkPluginVersion} refuses.
 */
public enum BuildPlugin {
    /** {@code jp-maven-plugin}, whose dependencies a POM can override. */
    MAVEN("jp-maven-plugin", "the plugin's class path", "the plugin's <dependencies> in the POM"),
    /** {@code jp-gradle-plugin}, loaded from a build script's class path. */
    GRADLE("jp-gradle-plugin", "the build script's class path", "the buildscript dependencies");

    private final String artifact;
    private final String classPath;
    private final String dependencies;

    BuildPlugin(String artifact, String classPath, String dependencies) {
        this.artifact = artifact;
        this.classPath = classPath;
        this.dependencies = dependencies;
    }

    /**
     * This plugin's own version, which its build writes into {@code <artifact>.properties} beside
     * the plugin's classes.
     *
     * @param pluginClass a class of the plugin, in the package of that resource
     * @return the version, for example {@code 0.1.0}
     * @throws EngineException naming the resource if the plugin jar has lost it
     */
    public String version(Class<?> pluginClass) {
        return VersionResource.read(pluginClass, artifact + ".properties", artifact);
    }

    /**
     * Why a jp-engine of another version cannot serve this plugin.
     *
     * @param facadeVersion the jp-engine's version
     * @param pluginVersion the plugin's version
     * @return the message, naming both versions and where to look
     */
    String versionMismatch(String facadeVersion, String pluginVersion) {
        return "jp-engine " + facadeVersion + " is on " + classPath + ", but this is " + artifact + " "
                + pluginVersion + "; they must be the same version (check " + dependencies + ")";
    }
}
