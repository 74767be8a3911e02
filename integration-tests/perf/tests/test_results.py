import unittest

from overhead import results

DRIVER = "perf: a note\nh2 checksum=5f3a9c01 rounds=1 warmup_ms=812 time_ms=377\n"


class ReadRunTest(unittest.TestCase):
    def test_a_run_that_exits_0_with_its_driver_line_passes(self):
        run = results.read_run(0, 4210, DRIVER)
        self.assertEqual(run, results.Run(True, False, "5f3a9c01", 4210, 377))

    def test_a_run_without_its_driver_line_fails(self):
        run = results.read_run(0, 4210, "h2 checksum=5f3a9c01 rounds=1\n")
        self.assertFalse(run.ok)
        self.assertIsNone(run.steady_ms)

    def test_a_run_that_exits_non_zero_fails_even_with_its_line(self):
        self.assertFalse(results.read_run(1, 4210, DRIVER).ok)

    def test_status_124_is_a_timeout(self):
        run = results.read_run(124, 30000, "")
        self.assertEqual((run.ok, run.timed_out), (False, True))


class ChecksumsTest(unittest.TestCase):
    def test_every_run_must_give_the_baseline_s_checksum(self):
        checksums = results.Checksums()
        self.assertIsNone(checksums.mismatch("baseline", "aa"))
        self.assertIsNone(checksums.mismatch("default", "aa"))
        self.assertEqual(checksums.mismatch("precise", "bb"), "checksum bb differs from the baseline's aa")

    def test_a_later_baseline_run_must_give_the_first_one_s_checksum(self):
        checksums = results.Checksums()
        checksums.mismatch("baseline", "aa")
        self.assertEqual(checksums.mismatch("baseline", "cc"), "checksum cc differs from the baseline's aa")

    def test_without_a_passing_baseline_run_every_checksum_differs(self):
        self.assertEqual(results.Checksums().mismatch("default", "aa"),
                         "checksum aa differs from the baseline's (none)")

    def test_any_value_can_be_what_every_run_must_give_shown_as_asked(self):
        expected = results.Checksums("the test results", lambda lines: f"({len(lines)} tests)")
        self.assertIsNone(expected.mismatch("baseline", ["a\tb\tpassed"]))
        self.assertIsNone(expected.mismatch("jfr", ["a\tb\tpassed"]))
        self.assertEqual(expected.mismatch("default", ["a\tb\tfailed", "a\tc\tpassed"]),
                         "the test results (2 tests) differs from the baseline's (1 tests)")


class TimesTest(unittest.TestCase):
    def test_a_bound_keeps_the_wall_time_only_and_marks_the_pair(self):
        times = results.Times()
        times.add("h2", "baseline", results.Run(True, False, "aa", 4000, 300))
        times.add_bound("h2", "jvmti", results.Run(False, True, "", 30000, None))
        self.assertEqual((times.wall["h2", "baseline"], times.steady["h2", "baseline"]), ([4000], [300]))
        self.assertEqual((times.wall["h2", "jvmti"], times.steady["h2", "jvmti"]), ([30000], []))
        self.assertEqual(times.timed_out, {("h2", "jvmti")})


if __name__ == "__main__":
    unittest.main()
