import unittest

from jptest import stats


class StatsTest(unittest.TestCase):
    def test_the_median_of_an_odd_count_is_the_middle_value_in_order(self):
        self.assertEqual(stats.median([30, 10, 20]), 20)
        self.assertEqual(stats.median([7]), 7)

    def test_the_median_of_an_even_count_is_the_mean_of_the_two_middle_values(self):
        self.assertEqual(stats.median([40, 10, 30, 20]), 25)
        self.assertEqual(stats.median([1000, 1001]), 1000.5)

    def test_no_values_have_no_median(self):
        self.assertIsNone(stats.median([]))

    def test_the_spread_is_the_range_over_the_median(self):
        self.assertAlmostEqual(stats.spread([90, 100, 120]), 0.3)

    def test_one_run_has_no_spread(self):
        self.assertIsNone(stats.spread([100]))
        self.assertIsNone(stats.spread([]))
        self.assertIsNone(stats.spread([0, 0]))

    def test_a_ratio_needs_two_positive_values(self):
        self.assertEqual(stats.ratio(300, 200), 1.5)
        self.assertIsNone(stats.ratio(300, 0))
        self.assertIsNone(stats.ratio(0, 200))
        self.assertIsNone(stats.ratio(None, 200))
        self.assertIsNone(stats.ratio(300, None))

    def test_the_geometric_mean_is_the_nth_root_of_the_product(self):
        self.assertAlmostEqual(stats.geometric_mean([1.0, 4.0]), 2.0)
        self.assertAlmostEqual(stats.geometric_mean([2.0, 2.0, 2.0]), 2.0)
        self.assertIsNone(stats.geometric_mean([]))


if __name__ == "__main__":
    unittest.main()
