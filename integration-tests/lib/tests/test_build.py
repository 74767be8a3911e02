import contextlib
import io
import pathlib
import shutil
import tempfile
import unittest

from jptest import build


class InScratchTest(unittest.TestCase):
    def run_in_scratch(self, status, keep=False):
        seen = []
        out = io.StringIO()

        def body(work):
            (work / "log").write_text("what happened")
            seen.append(work)
            return status

        with contextlib.redirect_stdout(out):
            returned = build.in_scratch("suite.py", "jp-test-scratch.", body, keep)
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

    def test_a_passing_run_asked_to_keep_its_work_files_keeps_them_and_names_them(self):
        work, said = self.run_in_scratch(0, keep=True)
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


class InstallJpTest(unittest.TestCase):
    def test_the_version_is_the_root_pom_s_own(self):
        self.assertRegex(build.pom_version(), r"^[0-9]+\.[0-9]+\.[0-9]+")

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.repo = pathlib.Path(self.dir.name) / "m2"
        self.version = build.pom_version()

    def tearDown(self):
        self.dir.cleanup()

    def test_a_module_is_laid_out_as_mvn_install_would(self):
        build.install_jp(self.repo, ["parent"])
        pom = self.repo / "org" / "jpprof" / "jp-parent" / self.version / f"jp-parent-{self.version}.pom"
        self.assertEqual(pom.read_text(), (build.ROOT / "pom.xml").read_text())

    def test_another_version_rewrites_the_pom_to_it(self):
        build.install_jp(self.repo, ["parent"], "9.9.9")
        pom = self.repo / "org" / "jpprof" / "jp-parent" / "9.9.9" / "jp-parent-9.9.9.pom"
        self.assertIn("<artifactId>jp-parent</artifactId>\n  <version>9.9.9</version>", pom.read_text())

    def test_an_unknown_module_cannot_be_installed(self):
        with self.assertRaisesRegex(build.SuiteError, "cannot install into .*: install_jp: no module 'no-such-module'"):
            build.install_jp(self.repo, ["no-such-module"])


if __name__ == "__main__":
    unittest.main()
