import unittest

from jptest import gradle_logs

GRADLE_4 = """:compileJava UP-TO-DATE
:jpInstrument UP-TO-DATE
:core:jpProfileTest SKIPPED
:jpReport
"""
GRADLE_8 = """> Task :compileJava UP-TO-DATE
> Task :jpInstrument FROM-CACHE
> Task :app:jpReport SKIPPED
> Task :jpProfileTest
"""
INSTRUMENTED = """> Task :jpInstrument
jp: jpInstrument -> build/jp/classes/main: 1 rewritten, 4 reused, 0 copied, 0 unchanged, 0 deleted, 0 skipped
jp: jpInstrument -> build/jp/classes/main: 0 rewritten, 5 reused, 0 copied, 0 unchanged, 0 deleted, 0 skipped
"""


class OutcomeTest(unittest.TestCase):
    def test_gradle_4_prints_the_task_path_and_its_outcome(self):
        self.assertTrue(gradle_logs.has_outcome(GRADLE_4, "jpInstrument", "UP-TO-DATE"))
        self.assertTrue(gradle_logs.has_outcome(GRADLE_4, "core:jpProfileTest", "SKIPPED"))

    def test_a_later_gradle_puts_task_before_the_path(self):
        self.assertTrue(gradle_logs.has_outcome(GRADLE_8, "jpInstrument", "FROM-CACHE"))
        self.assertTrue(gradle_logs.has_outcome(GRADLE_8, "app:jpReport", "SKIPPED"))

    def test_another_outcome_or_none_does_not_count(self):
        self.assertFalse(gradle_logs.has_outcome(GRADLE_8, "jpInstrument", "UP-TO-DATE"))
        self.assertFalse(gradle_logs.has_outcome(GRADLE_8, "jpProfileTest", "UP-TO-DATE"))
        self.assertFalse(gradle_logs.has_outcome(GRADLE_4, "jpReport", ""))

    def test_the_task_path_is_whole_and_literal(self):
        self.assertFalse(gradle_logs.has_outcome(GRADLE_4, "jpProfileTest", "SKIPPED"))
        self.assertFalse(gradle_logs.has_outcome(":compileJavaXUP-TO-DATE\n", "compileJava", "UP-TO-DATE"))


class InstrumentLineTest(unittest.TestCase):
    def test_the_first_line_of_the_task_is_taken(self):
        self.assertEqual(gradle_logs.instrument_line(INSTRUMENTED, "jpInstrument"),
                         "jp: jpInstrument -> build/jp/classes/main: 1 rewritten, 4 reused, 0 copied, 0 unchanged, "
                         "0 deleted, 0 skipped")

    def test_another_task_or_no_line_gives_nothing(self):
        self.assertEqual(gradle_logs.instrument_line(INSTRUMENTED, "jpInstrumentTest"), "")
        self.assertEqual(gradle_logs.instrument_line("", "jpInstrument"), "")

    def test_the_counts_follow_the_last_colon(self):
        line = gradle_logs.instrument_line(INSTRUMENTED, "jpInstrument")
        self.assertEqual(gradle_logs.counts(line),
                         "1 rewritten, 4 reused, 0 copied, 0 unchanged, 0 deleted, 0 skipped")
        self.assertEqual(gradle_logs.counts(""), "")


if __name__ == "__main__":
    unittest.main()
