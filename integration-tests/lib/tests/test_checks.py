import io
import unittest

from jptest import checks


class ChecksTest(unittest.TestCase):
    def test_lines_and_counts_follow_the_suites_format(self):
        out = io.StringIO()
        suite = checks.Checks(out)
        suite.pass_("a: fine")
        suite.fail("b: broken", checks.indented("one\ntwo\nthree", 2))
        suite.skip("c: no Temurin 25")
        suite.check(True, "d: yes", "d: no")
        suite.summary("x.py")
        self.assertEqual(out.getvalue(), "PASS a: fine\nFAIL b: broken\n    one\n    two\n"
                         "SKIP c: no Temurin 25\nPASS d: yes\nx.py: 2 checks passed, 1 failed\n")
        self.assertEqual(suite.status(), 1)

    def test_no_failure_is_status_0(self):
        suite = checks.Checks(io.StringIO())
        suite.pass_("a")
        self.assertEqual(suite.status(), 0)


    def test_named_checks_name_the_suite_after_the_word(self):
        out = io.StringIO()
        suite = checks.NamedChecks("cross", out)
        suite.pass_("tools: fine")
        suite.fail("release jar: broken", "    | why\n")
        suite.skip("macos: cannot run here")
        self.assertEqual(out.getvalue(), "PASS cross tools: fine\nFAIL cross release jar: broken\n    | why\n"
                         "SKIP cross macos: cannot run here\n")
        self.assertEqual((suite.passed, suite.failed), (1, 1))


if __name__ == "__main__":
    unittest.main()
