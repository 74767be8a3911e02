package org.example.params;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FieldsTest {
    private Fields fields;

    @BeforeAll
    static void loadSeparators() {
        Fields.loadSeparators();
    }

    @BeforeEach
    void setUp() {
        fields = new Fields();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"a|1", "a,b|2", "a,b,c,d,e,f,g,h|8"})
    void splits(String line, int count) {
        assertEquals(count, fields.split(line).size());
    }

    @Test
    void keepsEmptyFields() {
        assertEquals(3, fields.split(",,").size());
    }
}
