package org.jpprof.maven;

import java.io.File;
import java.util.Locale;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.project.MavenProject;
import org.apache.maven.reporting.MavenReport;
import org.apache.maven.reporting.MavenReportException;

/**
 * {@code jp:report} as a report of {@code mvn site}, for a POM that declares the plugin in its
 * {@code <reporting>}: the site's "Project Reports" link to {@code jp/index.html}, which this goal
 * writes as {@code jp:report} does, from the profiles of the newest test run ({@code mvn verify
 * site}); at the top of a multi-module build, from those of every module.
 *
 * <p>{@code jp:report} itself is an aggregator, which the site plugin runs only at the top of a
 * multi-module build; this goal is not one, so every module's site gets its report. The report's
 * page is JP's own, outside the site's skin, so both the site plugins built on Doxia 1 (3.12.x) and
 * those built on Doxia 2 (3.20 on) can list it: it never writes into the site's sink, and it has the
 * entry point of each ({@link #generate(org.codehaus.doxia.sink.Sink, Locale)},
 * {@link #generate(org.apache.maven.doxia.sink.Sink, Locale)}).
 */
@Mojo(name = "site-report", threadSafe = true)
public class SiteReportMojo extends ReportMojo implements MavenReport {
    /** The report's page, relative to the site's directory, without {@code .html}. */
    private static final String OUTPUT_NAME = "jp/index";

    /**
     * The site's entry point (maven-site-plugin 3.12.x, Doxia 1).
     *
     * @param sink the site's page, which stays empty: the report has a page of its own
     * @param locale the site's locale
     * @throws MavenReportException if the report cannot be written
     */
    @Override
    @SuppressWarnings("deprecation")
    public void generate(org.codehaus.doxia.sink.Sink sink, Locale locale) throws MavenReportException {
        generateForSite();
    }

    /**
     * The site's entry point (maven-site-plugin 3.20 on, Doxia 2, whose {@code MavenReport} has this
     * method only).
     *
     * @param sink the site's page, which stays empty: the report has a page of its own
     * @param locale the site's locale
     * @throws MavenReportException if the report cannot be written
     */
    public void generate(org.apache.maven.doxia.sink.Sink sink, Locale locale) throws MavenReportException {
        generateForSite();
    }

    private void generateForSite() throws MavenReportException {
        try {
            run();
        } catch (MojoExecutionException e) {
            throw new MavenReportException(e.getMessage(), e);
        }
    }

    @Override
    public String getOutputName() {
        return OUTPUT_NAME;
    }

    @Override
    public String getCategoryName() {
        return CATEGORY_PROJECT_REPORTS;
    }

    @Override
    public String getName(Locale locale) {
        return "JP profile";
    }

    @Override
    public String getDescription(Locale locale) {
        return "Exact calls and bytecodes of the tests, per calling context (JP)";
    }

    @Override
    public void setReportOutputDirectory(File siteDirectory) {
        outputDirectory = new File(siteDirectory, "jp");
    }

    @Override
    public File getReportOutputDirectory() {
        return outputDirectory.getParentFile();
    }

    /** The report is JP's own page, not one the site renders. */
    @Override
    public boolean isExternalReport() {
        return true;
    }

    /** Only with profiles to report, so that the site never links a page that is not there. */
    @Override
    public boolean canGenerateReport() {
        if (skip) {
            return false;
        }
        try {
            for (MavenProject module : projects()) {
                if (!profilesOf(module).isEmpty()) {
                    return true;
                }
            }
        } catch (MojoExecutionException e) {
            return true; // generating names the problem
        }
        getLog().info("jp: no profiles in target/jp/profiles; the site lists no JP report (run the tests first:"
                + " mvn verify site)");
        return false;
    }

}
