package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class NamesTest {
    @Test
    void settings_should_name_constants_in_any_case_and_with_blanks() {
        assertEquals(InstrumentRequest.Bba.PRECISE, InstrumentRequest.Bba.named(" Precise "));
        assertEquals(InstrumentRequest.Bba.DEFAULT, InstrumentRequest.Bba.named("default"));
        assertEquals(ReportRequest.Metric.CALLS, ReportRequest.Metric.named("calls"));
        assertEquals(ReportRequest.Metric.BYTECODES, ReportRequest.Metric.named("BYTECODES"));
    }

    @Test
    void an_unknown_name_should_be_refused_listing_the_names_there_are() {
        IllegalArgumentException bba = assertThrows(IllegalArgumentException.class,
                () -> InstrumentRequest.Bba.named("exact"));
        assertEquals("bba is 'exact'; it must be one of 'default', 'precise'", bba.getMessage());
        IllegalArgumentException metric = assertThrows(IllegalArgumentException.class,
                () -> ReportRequest.Metric.named("seconds"));
        assertEquals("metric is 'seconds'; it must be one of 'calls', 'bytecodes'", metric.getMessage());
    }
}
