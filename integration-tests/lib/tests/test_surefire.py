import pathlib
import tempfile
import unittest

from jptest import surefire

REPORT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="org.example.WordsTest" tests="4" failures="1" errors="1" skipped="1">
  <testcase name="splits(String, int)[1]" classname="org.example.WordsTest" time="0.01"/>
  <testcase name="fails" classname="org.example.WordsTest"><failure message="no"/></testcase>
  <testcase classname="org.example.WordsTest" name="breaks"><error type="java.lang.Error"/></testcase>
  <testcase name="later" classname="org.example.WordsTest"><skipped/></testcase>
</testsuite>
"""


class SurefireTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.reports = pathlib.Path(self.dir.name)
        (self.reports / "TEST-org.example.WordsTest.xml").write_text(REPORT)
        # Not a Surefire report: only `results` reads every XML file.
        (self.reports / "other.xml").write_text(REPORT.replace("WordsTest", "OtherTest"))

    def tearDown(self):
        self.dir.cleanup()

    def test_results_give_each_test_its_status_sorted(self):
        self.assertEqual(surefire.results(self.reports)[:4], [
            "org.example.OtherTest\tbreaks\tfailed",
            "org.example.OtherTest\tfails\tfailed",
            "org.example.OtherTest\tlater\tskipped",
            "org.example.OtherTest\tsplits(String, int)[1]\tpassed",
        ])
        self.assertEqual(len(surefire.results(self.reports)), 8)

    def test_results_counts_count_each_status(self):
        self.assertEqual(surefire.results_counts(surefire.results(self.reports)), "2 passed, 4 failed, 2 skipped")
        self.assertEqual(surefire.results_counts([]), "0 passed, 0 failed, 0 skipped")

    def test_ids_read_surefire_reports_whatever_the_attribute_order(self):
        self.assertEqual(surefire.test_ids(self.reports), [
            "org.example.WordsTest#breaks", "org.example.WordsTest#fails",
            "org.example.WordsTest#later", "org.example.WordsTest#splits(String, int)[1]",
        ])

    def test_counts_are_tests_run_and_tests_broken(self):
        self.assertEqual(surefire.counts(self.reports), (4, 2))

    def test_no_reports_count_nothing(self):
        with tempfile.TemporaryDirectory() as empty:
            self.assertEqual(surefire.counts(empty), (0, 0))
            self.assertEqual(surefire.test_ids(empty), [])


if __name__ == "__main__":
    unittest.main()
