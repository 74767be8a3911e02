import os
import pathlib
import tempfile
import unittest

from jptest import oracle

FIG4 = "demo.Fig4.main([Ljava/lang/String;)V;demo.Fig4.f()V"
FIG4_CALLS = [f"{FIG4} 1", f"{FIG4};demo.Fig4.h()V 10", f"{FIG4};demo.Fig4.g(I)V 10",
              f"{FIG4};demo.Fig4.g(I)V;demo.Fig4.h()V 55"]


class ExpectationsTest(unittest.TestCase):
    def test_each_metric_of_an_expect_line_is_one_expectation(self):
        source = "class A {\n    // expect: a.A.m()V;a.A.n()V calls=1 bytecodes=7\n    int x; // expect: a.A.k()V calls=2\n}\n"
        self.assertEqual(oracle.expectations(source), [("a.A.m()V;a.A.n()V", "calls", "1"),
                                                       ("a.A.m()V;a.A.n()V", "bytecodes", "7"),
                                                       ("a.A.k()V", "calls", "2")])

    def test_a_value_problem_names_what_was_expected_and_found(self):
        self.assertIsNone(oracle.value_problem("Fig4", ["a;b 3"], "a;b", "3"))
        self.assertEqual(oracle.value_problem("Fig4", ["a;b 3"], "a;b", "4"), "Fig4: a;b: expected 4, got 3")
        self.assertEqual(oracle.value_problem("f", [], "a", "1"), "f: a: expected 1, got missing")


class ProfileLinesTest(unittest.TestCase):
    def test_line_records_read_as_the_oracle_writes_them_sorted_with_their_frames(self):
        text = ("jp-profile 2\nframe 1 demo.B.m()V\nframe 2 demo.A.odd\\\\name()V\nnode 1 0 1 1 5\n"
                "node 2 1 2 1 3\nline 1 7 2\nline 1 12 3\nline 2 4 3\nend 2\n")
        self.assertEqual(oracle.profile_lines(text),
                         ["demo.A.odd\\name()V 4 3", "demo.B.m()V 12 3", "demo.B.m()V 7 2"])

    def test_line_records_of_a_profile_with_thread_groups_are_merged_over_the_groups(self):
        text = ("jp-profile 3\nmeta threads 3\nframe 1 demo.B.m()V\nthread 1 main\nnode 1 0 1 1 5\n"
                "thread 2 pool-#-thread-#\nnode 2 0 1 2 10\nline 1 7 15\nend 2\n")
        self.assertEqual(oracle.profile_lines(text), ["demo.B.m()V 7 15"])

    def test_a_profile_without_lines_has_none(self):
        self.assertEqual(oracle.profile_lines("jp-profile 1\nframe 1 a.B.m()V\nnode 1 0 1 1 5\nend 1\n"), [])


class PaperTest(unittest.TestCase):
    def test_fig4_passes_with_the_papers_numbers(self):
        name, numbers, problems = oracle.paper("Fig4", FIG4_CALLS, [f"{FIG4} 106"])
        self.assertEqual((name, problems), ("JP Fig. 4", []))
        self.assertIn("f.g.h = 55", numbers)

    def test_fig4_names_each_wrong_value(self):
        _, _, problems = oracle.paper("Fig4", FIG4_CALLS[:3], [f"{FIG4} 105"])
        self.assertEqual(problems, [f"f bytecodes: {FIG4}: expected 106, got 105",
                                    f"f.g.h: {FIG4};demo.Fig4.g(I)V;demo.Fig4.h()V: expected 55, got missing"])

    def test_fig5_counts_every_call(self):
        main = "demo.Fig5.main([Ljava/lang/String;)V;demo.Fig5.A()V"
        calls = [f"{main};demo.Fig5.B()V;demo.Fig5.D()V 200", f"{main};demo.Fig5.C()V;demo.Fig5.D()V 100",
                 "demo.Fig5.main([Ljava/lang/String;)V 310"]
        self.assertEqual(oracle.paper("Fig5", calls, [])[2], ["total calls: expected 611, got 610"])
        self.assertEqual(oracle.paper("Fig5", [*calls, f"{main} 1"], [])[2], [])

    def test_other_programs_have_no_paper_numbers(self):
        self.assertIsNone(oracle.paper("Loops", [], []))


class RunTest(unittest.TestCase):
    """oracle.run with a stand-in for java that prints its arguments and what the test asks for."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.base = pathlib.Path(self.dir.name)
        self.java = self.base / "java"
        self.java.write_text('#!/bin/sh\necho "$@"\necho "$FAKE_STDERR" >&2\nexit "$FAKE_STATUS"\n')
        os.chmod(self.java, 0o755)

    def tearDown(self):
        self.dir.cleanup()

    def run_fake(self, stderr, status, **options):
        os.environ.update(FAKE_STDERR=stderr, FAKE_STATUS=str(status))
        try:
            return oracle.run("/lib.so", self.java, "demo.Fig4", "classes", self.base / "out" / "Fig4",
                              self.base / "stdout", self.base / "stderr", ["arg"], **options)
        finally:
            del os.environ["FAKE_STDERR"], os.environ["FAKE_STATUS"]

    def test_the_agent_selects_the_programs_package_and_writes_to_the_prefix(self):
        self.assertEqual(self.run_fake("", 0), 0)
        out = self.base / "out" / "Fig4"
        self.assertEqual((self.base / "stdout").read_text(),
                         f"-XX:-RewriteFrequentPairs -agentpath:/lib.so=include=demo.,out={out} -cp classes "
                         "demo.Fig4 arg\n")

    def test_options_and_includes_are_passed_on(self):
        self.run_fake("", 0, include="a.;b.", options="metrics=calls")
        self.assertIn("=include=a.;b.,out=", (self.base / "stdout").read_text())
        self.assertIn(",metrics=calls ", (self.base / "stdout").read_text())

    def test_a_warning_makes_a_passing_run_status_3_and_a_failing_one_keeps_its_status(self):
        self.assertEqual(self.run_fake("jp-oracle: warning: lost an exit", 0), oracle.WARNED)
        self.assertEqual(self.run_fake("jp-oracle: warning: lost an exit", 1), 1)
        self.assertEqual(self.run_fake("not a jp-oracle: warning", 0), 0)

    def test_the_unnamed_package_needs_an_include(self):
        with self.assertRaises(oracle.OracleError):
            oracle.agent_options("Main", "out")


class ProgramsTest(unittest.TestCase):
    def test_the_demo_programs_include_the_paper_examples(self):
        programs = oracle.demo_programs()
        self.assertIn("Fig4", programs)
        self.assertEqual(programs, sorted(programs))


if __name__ == "__main__":
    unittest.main()
