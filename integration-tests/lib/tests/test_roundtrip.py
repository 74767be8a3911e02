import unittest

from jptest import roundtrip


class SummaryTest(unittest.TestCase):
    def test_the_summary_line_gives_its_four_counts(self):
        self.assertEqual(roundtrip.summary("roundtrip: 5720 classes, 5719 identical, 0 differ, 1 failed"),
                         roundtrip.Summary(classes=5720, identical=5719, differ=0, failed=1))

    def test_other_lines_are_no_summary(self):
        for line in ("", "timed out after 600s", "roundtrip: 3 classes, 3 identical, 0 differ",
                     "roundtrip: 3 classes, 3 identical, 0 differ, 0 failed (cached)",
                     "warning: roundtrip: 3 classes, 3 identical, 0 differ, 0 failed"):
            self.assertIsNone(roundtrip.summary(line), line)

    def test_all_identical_needs_classes_and_no_difference_or_failure(self):
        self.assertTrue(roundtrip.all_identical("roundtrip: 3 classes, 3 identical, 0 differ, 0 failed"))
        self.assertFalse(roundtrip.all_identical("roundtrip: 0 classes, 0 identical, 0 differ, 0 failed"))
        self.assertFalse(roundtrip.all_identical("roundtrip: 3 classes, 2 identical, 1 differ, 0 failed"))
        self.assertFalse(roundtrip.all_identical("roundtrip: 3 classes, 2 identical, 0 differ, 1 failed"))
        self.assertFalse(roundtrip.all_identical("timed out after 600s"))


if __name__ == "__main__":
    unittest.main()
