import io
import pathlib
import tempfile
import unittest

from jptest import commands, plugin_checks

DEMO = "[test] org.example.leaderboard.LeaderboardTest"
RANK = plugin_checks.RANK
BEFORE = plugin_checks.BEFORE
REPORT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="org.example.WordsTest" tests="3" failures="0" errors="0">
  <testcase name="keepsEmpty" classname="org.example.WordsTest"/>
  <testcase name="splits(String, int)[1]" classname="org.example.WordsTest"/>
  <testcase name="trims()" classname="org.example.WordsTest"/>
</testsuite>
"""
PARAMS = "[test] org.example.params.FieldsTest#splits(String, int)"
SPLIT = "org.example.params.Fields.split(java.lang.String):java.util.List"


class ValuesTest(unittest.TestCase):
    def test_totals_sum_each_test_subtree_sorted_bytewise(self):
        folded = [f"{DEMO}#b() 2", f"{DEMO}#b();{RANK} 40", f"{DEMO}#a() 1", "x.Y.<clinit>()V 9", "[test] Z 3"]
        self.assertEqual(plugin_checks.test_totals(folded),
                         ["[test] Z = 3", f"{DEMO}#a() = 1", f"{DEMO}#b() = 42"])

    def test_outside_tests_leaves_static_initializers_out_and_keeps_three(self):
        folded = ["[test] a 1", "a.B.<clinit>():void 1", "a.B.<clinit>():void;a.C.f():void 1",
                  "a.C.f():void 1", "a.C.g():void 1", "a.C.h():void 1", "a.C.i():void 1"]
        self.assertEqual(plugin_checks.outside_tests(folded), ["a.C.f():void 1", "a.C.g():void 1", "a.C.h():void 1"])

    def test_a_test_without_its_context_or_run_twice_is_missing(self):
        folded = ["[test] org.example.WordsTest#keepsEmpty() 1",
                  "[test] org.example.WordsTest#splits(String, int) > [1] a, 1 1",
                  "[test] org.example.WordsTest#trims() 2"]
        ids = ["org.example.WordsTest#keepsEmpty", "org.example.WordsTest#splits(String, int)[1]",
               "org.example.WordsTest#splits(String, int)[2]", "org.example.WordsTest#trims()"]
        self.assertEqual(plugin_checks.tests_without_context(ids, folded),
                         ["org.example.WordsTest#splits(String, int)[2]", "org.example.WordsTest#trims()"])

    def test_hottest_is_the_first_highest_line(self):
        self.assertEqual(plugin_checks.hottest(["a 3", "b 7", "c 7", "d 1"]), "b 7")
        self.assertEqual(plugin_checks.hottest(["a 0"]), "")

    def test_calls_below_sum_the_contexts_ending_with_the_path(self):
        folded = [f"{DEMO}#a();{RANK};{BEFORE} 300000", f"{DEMO}#b();{RANK};{BEFORE} 250000",
                  f"{DEMO}#b();{BEFORE} 5", f"{DEMO}#b();{RANK} 1"]
        self.assertEqual(plugin_checks.calls_below(folded, f"{RANK};{BEFORE}"), 550000)

    def test_testng_version_is_read_from_the_line_after_the_artifact(self):
        pom = "<dependency>\n<groupId>org.testng</groupId>\n<artifactId>testng</artifactId>\n" \
              "<version>7.10.2</version>\n</dependency>\n<version>1.0</version>"
        self.assertEqual(plugin_checks.testng_version(pom), "7.10.2")
        self.assertEqual(plugin_checks.testng_version("<version>1.0</version>"), "")

    def test_squeezed_and_relative(self):
        self.assertEqual(plugin_checks.squeezed("changed   a  b"), "changed a b")
        self.assertEqual(plugin_checks.relative("/w/demo/.run/x.launch", "/w/demo"), ".run/x.launch")
        self.assertEqual(plugin_checks.relative("/elsewhere/x", "/w/demo"), "/elsewhere/x")


class FilesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = pathlib.Path(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = self.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def test_a_complete_page_runs_from_its_doctype_to_its_closing_tag(self):
        self.assertTrue(plugin_checks.complete_page(self.write("a.html", "<!DOCTYPE html><p>x</p></html>\n")))
        self.assertFalse(plugin_checks.complete_page(self.write("b.html", "<!DOCTYPE html><p>x</p>")))
        self.assertFalse(plugin_checks.complete_page(self.write("c.html", "<html><p>x</p></html>\n")))
        self.assertFalse(plugin_checks.complete_page(self.path / "missing.html"))

    def test_a_crash_file_four_levels_deep_is_found_five_is_not(self):
        self.write("a/b/c/d/e/hs_err_pid1.log", "")
        self.assertTrue(plugin_checks.no_crash(self.path))
        self.write("a/b/c/hs_err_pid2.log", "")
        self.assertFalse(plugin_checks.no_crash(self.path / "missing", self.path))

    def checks(self):
        out = io.StringIO()
        return plugin_checks.PluginChecks(plugin_checks.NamedChecks("maven-plugin", out), "jp", self.path, "1.0"), out

    def test_per_test_passes_when_every_reported_test_has_its_context(self):
        self.write("reports/TEST-org.example.WordsTest.xml", REPORT)
        folded = self.write("calls.folded", "[test] org.example.WordsTest#keepsEmpty() 1\n"
                            "[test] org.example.WordsTest#splits(String, int) > [1] a, 1 1\n"
                            "[test] org.example.WordsTest#trims() 1\norg.example.Words.<clinit>():void 1\n")
        plugin, out = self.checks()
        plugin.per_test("demo", folded, self.path / "reports")
        self.assertEqual(out.getvalue(), "PASS maven-plugin per-test: demo: each of the 3 tests is a top-level "
                         "context, run once; nothing but static initializers outside\n")

    def test_per_test_names_what_is_missing_and_outside(self):
        self.write("reports/TEST-org.example.WordsTest.xml", REPORT)
        folded = self.write("calls.folded", "[test] org.example.WordsTest#keepsEmpty() 1\n"
                            "[test] org.example.WordsTest#splits(String, int) > [1] a, 1 1\n"
                            "org.example.Words.trim():void 1\n")
        plugin, out = self.checks()
        plugin.per_test("demo", folded, self.path / "reports")
        self.assertEqual(out.getvalue(), "FAIL maven-plugin per-test: demo: tests without a context: "
                         "org.example.WordsTest#trims(); outside tests: org.example.Words.trim():void 1\n")
        self.assertEqual(plugin.checks.status(), 1)

    def test_a_failed_check_is_status_1_a_complete_page_is_one_and_testng_has_a_version(self):
        calls = self.write("calls.folded", f"{PARAMS} > [1] a, 1;{SPLIT} 1\n")
        page = self.write("page.html", "<!DOCTYPE html></html>\n")
        plugin, out = self.checks()
        plugin.params_contexts(calls, calls)
        self.assertEqual(plugin.checks.status(), 1)
        self.assertTrue(out.getvalue().startswith("FAIL maven-plugin per-test: params: invocations told apart (0 of 3; "))
        self.assertTrue(plugin_checks.complete_page(page))
        self.assertRegex(plugin_checks.testng_version(commands.read_text(plugin_checks.TESTNG_POM)), r"^[0-9]+\.[0-9.]+$")

    def params(self, third_calls):
        lines = []
        for invocation, calls in (("[1] a, 1", 1), ("[2] a,b, 2", 1), ("[3] a,b,c,d,e,f,g,h, 8", third_calls)):
            lines += [f"{PARAMS} > {invocation};{SPLIT} {calls}",
                      f"{PARAMS} > {invocation};org.example.params.Fields.<init>():void 1"]
        lines.append("[test] org.example.params.FieldsTest;org.example.params.Fields.loadSeparators():void 1")
        calls = self.write("calls.folded", "\n".join(lines) + "\n")
        bytecodes = self.write("bytecodes.folded", f"{PARAMS} > [1] a, 1;{SPLIT} 40\n"
                               f"{PARAMS} > [3] a,b,c,d,e,f,g,h, 8;{SPLIT} 300\n")
        plugin, out = self.checks()
        plugin.params_contexts(calls, bytecodes)
        return out.getvalue().splitlines()[0]

    def test_params_contexts_tell_the_invocations_apart(self):
        self.assertEqual(self.params(1), "PASS maven-plugin per-test: params: 3 invocations of a parameterized "
                         "test told apart, each with its @BeforeEach; @BeforeAll under the class (40 and 300 "
                         "bytecodes in split)")
        self.assertEqual(self.params(2), "FAIL maven-plugin per-test: params: invocations told apart (2 of 3; "
                         "split: 40 and 300 bytecodes)")


if __name__ == "__main__":
    unittest.main()
