import contextlib
import io
import pathlib
import re
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


class MadeOnceTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.target = pathlib.Path(self.dir.name) / "cache" / "image"
        self.made = []

    def tearDown(self):
        self.dir.cleanup()

    def make(self, partial):
        self.made.append(partial)
        (partial / "classes").write_text("extracted")

    def test_it_is_made_once_then_found(self):
        self.assertEqual(build.made_once(self.target, self.make), self.target)
        self.assertEqual(build.made_once(self.target, self.make), self.target)
        self.assertEqual(self.made, [pathlib.Path(f"{self.target}.partial")])
        self.assertEqual((self.target / "classes").read_text(), "extracted")
        self.assertFalse(pathlib.Path(f"{self.target}.partial").exists())

    def test_a_make_cut_short_leaves_no_directory_and_the_next_run_starts_over(self):
        def broken(partial):
            (partial / "half").write_text("half")
            raise build.SuiteError("extraction failed")

        with self.assertRaises(build.SuiteError):
            build.made_once(self.target, broken)
        self.assertFalse(self.target.exists())
        build.made_once(self.target, self.make)
        self.assertEqual(sorted(path.name for path in self.target.iterdir()), ["classes"])


class RootVersionTest(unittest.TestCase):
    def test_it_is_the_version_of_the_root_pom(self):
        pom = (build.ROOT / "pom.xml").read_text()
        self.assertRegex(build.root_version(), r"^[0-9]+\.[0-9]+")
        self.assertEqual(re.search("<version>(.*)</version>", pom).group(1), build.root_version())


class InstallJpTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.repo = pathlib.Path(self.dir.name) / "m2"
        self.version = build.root_version()

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
