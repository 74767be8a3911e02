import unittest

from overhead import suite_runs

SUMMARY = """
Test run finished after 366844 ms
[       412 containers found      ]
[         0 containers failed     ]
[     11508 tests found           ]
[         7 tests skipped         ]
[     11501 tests started         ]
[         5 tests aborted         ]
[     11496 tests successful      ]
[         0 tests failed          ]
"""


class SummaryTest(unittest.TestCase):
    def test_the_summary_gives_the_test_counts_not_the_containers(self):
        self.assertEqual(suite_runs.summary(SUMMARY), {"found": 11508, "skipped": 7, "started": 11501,
                                                      "aborted": 5, "successful": 11496, "failed": 0})

    def test_a_summary_cut_short_is_none(self):
        self.assertIsNone(suite_runs.summary(SUMMARY.split("[         5 tests aborted")[0]))
        self.assertIsNone(suite_runs.summary("Exception in thread \"main\" java.lang.OutOfMemoryError\n"))


class ReadRunTest(unittest.TestCase):
    def test_a_run_with_its_summary_passes_even_when_tests_failed(self):
        for status in (0, 1):
            run = suite_runs.read_run(status, 62000, SUMMARY)
            self.assertEqual((run.ok, run.timed_out, run.wall_ms, run.steady_ms), (True, False, 62000, None))

    def test_a_run_without_its_summary_or_that_crashed_fails(self):
        self.assertFalse(suite_runs.read_run(0, 62000, "").ok)
        self.assertFalse(suite_runs.read_run(134, 62000, SUMMARY).ok)
        run = suite_runs.read_run(124, 1800000, "")
        self.assertEqual((run.ok, run.timed_out), (False, True))


if __name__ == "__main__":
    unittest.main()
