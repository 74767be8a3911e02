import unittest

from overhead import results, tables


class MemoryTablesTest(unittest.TestCase):
    def test_the_tables_show_the_baseline_s_megabytes_and_the_ratios(self):
        times = results.Times()
        for heap, rss in ((100, 400), (110, 420), (90, 380)):
            times.add("h2", "baseline", results.Run(True, False, "aa", 1, 1, heap, rss))
        for heap, rss in ((150, 600), (160, 620), (140, 580)):
            times.add("h2", "default", results.Run(True, False, "aa", 1, 1, heap, rss))
        lines = tables.memory_tables(times, ["h2"], ["baseline", "default"], 3)
        self.assertTrue(lines[1].startswith("Peak Java heap after a collection"))
        self.assertEqual(lines[2:5], ["workload baseline MB   noise        default",
                                      "h2              100     20%          1.50x",
                                      "geomean                              1.50x"])
        self.assertTrue(lines[6].startswith("Peak resident set size"))
        self.assertEqual(lines[8], "h2              400     10%          1.50x")

    def test_a_run_without_a_peak_is_left_out(self):
        times = results.Times()
        times.add("h2", "baseline", results.Run(True, False, "aa", 1, 1, None, 400))
        lines = tables.memory_tables(times, ["h2"], ["baseline", "default"], 1)
        self.assertEqual(lines[3], "h2              n/a       -            n/a")
