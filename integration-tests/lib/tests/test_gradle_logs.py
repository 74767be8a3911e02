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


if __name__ == "__main__":
    unittest.main()
