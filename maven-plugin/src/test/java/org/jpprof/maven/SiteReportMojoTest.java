package org.jpprof.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Locale;
import org.apache.maven.reporting.MavenReport;
import org.junit.jupiter.api.Test;

class SiteReportMojoTest {
    @Test
    void the_site_links_the_page_that_the_report_writes_into_the_sites_directory() {
        SiteReportMojo report = new SiteReportMojo();
        report.setReportOutputDirectory(new File("/p/target/site"));
        assertEquals(new File("/p/target/site/jp"), report.outputDirectory);
        assertEquals(new File("/p/target/site"), report.getReportOutputDirectory());
        assertEquals("jp/index", report.getOutputName());
        assertTrue(report.isExternalReport());
        assertEquals(MavenReport.CATEGORY_PROJECT_REPORTS, report.getCategoryName());
        assertEquals("JP profile", report.getName(Locale.ROOT));
    }

    @Test
    void a_skipped_report_is_not_listed() {
        SiteReportMojo report = new SiteReportMojo();
        report.skip = true;
        assertFalse(report.canGenerateReport());
    }
}
