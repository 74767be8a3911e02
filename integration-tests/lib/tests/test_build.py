import contextlib
import io
import shutil
import unittest

from jptest import build


class InScratchTest(unittest.TestCase):
    def run_in_scratch(self, status):
        seen = []
        out = io.StringIO()

        def body(work):
            (work / "log").write_text("what happened")
            seen.append(work)
            return status

        with contextlib.redirect_stdout(out):
            returned = build.in_scratch("suite.py", "jp-test-scratch.", body)
        self.assertEqual(returned, status)
        self.assertTrue(seen[0].name.startswith("jp-test-scratch."))
        return seen[0], out.getvalue()

    def test_a_passing_suite_leaves_no_work_files(self):
        work, said = self.run_in_scratch(0)
        self.assertFalse(work.exists())
        self.assertEqual(said, "")

    def test_a_failing_suite_keeps_its_work_files_and_names_them(self):
        work, said = self.run_in_scratch(1)
        try:
            self.assertEqual((work / "log").read_text(), "what happened")
            self.assertEqual(said, f"suite.py: work files kept in {work}\n")
        finally:
            shutil.rmtree(work)

    def test_a_suite_that_raises_keeps_its_work_files(self):
        kept = []

        def body(work):
            kept.append(work)
            raise build.SuiteError("cannot run")

        with contextlib.redirect_stdout(io.StringIO()), self.assertRaises(build.SuiteError):
            build.in_scratch("suite.py", "jp-test-scratch.", body)
        self.assertTrue(kept[0].exists())
        kept[0].rmdir()


class PomVersionTest(unittest.TestCase):
    def test_the_first_version_is_the_projects(self):
        pom = """<project>
  <artifactId>jp-parent</artifactId>
  <version>1.2.3-SNAPSHOT</version>
  <dependency><artifactId>junit</artifactId><version>4.13.2</version></dependency>
</project>
"""
        self.assertEqual(build.pom_version(pom), "1.2.3-SNAPSHOT")

    def test_a_pom_without_a_version_has_none(self):
        self.assertEqual(build.pom_version("<project><artifactId>a</artifactId></project>"), "")


if __name__ == "__main__":
    unittest.main()
