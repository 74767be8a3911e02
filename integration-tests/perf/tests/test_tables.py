import unittest

from overhead import results, tables


def run(wall, steady):
    return results.Run(True, False, "aa", wall, steady, cpu_ms=2 * wall)


class TablesTest(unittest.TestCase):
    def setUp(self):
        self.times = results.Times()
        for wall, steady in ((4000, 400), (5000, 500), (4500, 450)):
            self.times.add("h2", "baseline", run(wall, steady))
        for wall, steady in ((9000, 800), (9900, 900), (9450, 850)):
            self.times.add("h2", "default", run(wall, steady))
        self.times.add("lucene", "baseline", run(2000, 200))
        self.times.add("lucene", "default", run(6000, 400))
        self.times.add_bound("h2", "jvmti", results.Run(False, True, "", 45000, None))
        self.times.add("lucene", "jvmti", run(40000, 3000))
        self.lines = tables.tables(self.times, ["h2", "lucene"], ["baseline", "default", "jvmti"], 3)

    def test_each_table_has_a_title_a_header_a_row_per_workload_and_the_geometric_means(self):
        self.assertEqual(len(self.lines), 18)
        self.assertEqual(self.lines[0], "")
        self.assertTrue(self.lines[1].startswith("Whole JVM wall time (start-up, warm-up round, measured rounds), "
                                                 "median of 3: slowdown against the baseline"))
        self.assertEqual(self.lines[2], "workload baseline s   noise        default          jvmti")
        self.assertTrue(self.lines[7].startswith("Whole JVM CPU time (user and system, every thread"))
        self.assertEqual(self.lines[13],
                         "Measured rounds only (after the warm-up round, timed inside the JVM), median of 3")

    def test_the_cpu_table_has_the_ratios_of_the_cpu_times(self):
        self.assertEqual(self.lines[9], "h2             9.00     22%          2.10x    (timed out)")

    def test_a_row_shows_the_baseline_seconds_its_noise_and_the_ratios_of_the_medians(self):
        self.assertEqual(self.lines[3], "h2             4.50     22%          2.10x        >10.00x")
        self.assertEqual(self.lines[4], "lucene         2.00       -          3.00x         20.00x")

    def test_the_geometric_mean_is_a_lower_bound_when_a_cell_is(self):
        self.assertEqual(self.lines[5], "geomean                              2.51x        >14.14x")

    def test_a_timed_out_run_has_no_steady_ratio_and_so_no_steady_mean(self):
        self.assertEqual(self.lines[15], "h2             0.45     22%          1.89x    (timed out)")
        self.assertEqual(self.lines[17], "geomean                              1.94x            n/a")

    def test_a_configuration_without_a_passing_run_shows_n_a(self):
        times = results.Times()
        times.add("h2", "baseline", run(4000, 400))
        lines = tables.table("t", times.wall, times.timed_out, ["h2"], ["baseline", "default"], True)
        self.assertEqual(lines[3:], ["h2             4.00       -            n/a",
                                     "geomean                                n/a"])

    def test_the_suite_table_has_its_title_and_a_column_wide_enough_for_its_names(self):
        times = results.Times()
        for wall in (60000, 64000, 62000):
            times.add("lang3-tests", "baseline", results.Run(True, False, "", wall, None))
        for wall in (80000, 81000, 79000):
            times.add("lang3-tests", "default", results.Run(True, False, "", wall, None))
        lines = tables.suite_table(times, ["lang3-tests"], ["baseline", "default"], 3)
        self.assertEqual(lines[1], "Test suite wall time (the whole JVM: start-up, every test, the profile written), "
                                   "median of 3: slowdown against the baseline")
        self.assertEqual(lines[2:5], ["workload    baseline s   noise        default",
                                      "lang3-tests      62.00      6%          1.29x",
                                      "geomean                                 1.29x"])
        self.assertTrue(lines[6].startswith("Whole JVM CPU time"))

    def test_without_a_baseline_every_ratio_is_n_a(self):
        times = results.Times()
        times.add("h2", "default", run(4000, 400))
        lines = tables.table("t", times.wall, times.timed_out, ["h2"], ["baseline", "default"], True)
        self.assertEqual(lines[3], "h2              n/a       -            n/a")



class OptionTablesTest(unittest.TestCase):
    def test_each_option_variant_is_shown_over_the_variant_it_extends(self):
        times = results.Times()
        times.add("h2", "default", run(4000, 400))
        times.add("h2", "allocations", run(5000, 500))
        times.add("h2", "lines", run(6000, 600))
        lines = tables.option_tables(times, ["h2"], [("default", ["allocations", "lines"])], 1)
        self.assertEqual(len(lines), 10)
        self.assertTrue(lines[1].startswith("Wall time, median of 1: what each option costs"), lines[1])
        self.assertEqual(lines[2], "workload  default s   noise    allocations          lines")
        self.assertEqual(lines[3], "h2             4.00       -          1.25x          1.50x")
        self.assertTrue(lines[6].startswith("CPU time, median of 1"), lines[6])
        self.assertEqual(lines[8], "h2             8.00       -          1.25x          1.50x")


if __name__ == "__main__":
    unittest.main()
