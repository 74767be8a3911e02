import os
import pathlib
import tempfile
import unittest
import zipfile

from jptest import files


class FilesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.base = pathlib.Path(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def tree(self, name, contents):
        for path, data in contents.items():
            (self.base / name / path).parent.mkdir(parents=True, exist_ok=True)
            (self.base / name / path).write_bytes(data)
        return self.base / name

    def jar(self, name, entries):
        with zipfile.ZipFile(self.base / name, "w") as archive:
            for entry, data in entries.items():
                archive.writestr(entry, data)
        return self.base / name

    def test_same_trees_differ_nowhere(self):
        a = self.tree("a", {"A.class": b"1", "p/B.class": b"2"})
        b = self.tree("b", {"A.class": b"1", "p/B.class": b"2"})
        self.assertEqual(files.differing_files(a, b), [])

    def test_changed_and_lone_files_differ(self):
        a = self.tree("a", {"A.class": b"1", "p/B.class": b"2", "C.class": b"3"})
        b = self.tree("b", {"A.class": b"1", "p/B.class": b"x", "D.class": b"4"})
        self.assertEqual(files.differing_files(a, b),
                         [pathlib.Path("C.class"), pathlib.Path("D.class"), pathlib.Path("p/B.class")])

    def test_jar_differences_name_changed_and_lone_entries(self):
        a = self.jar("a.jar", {"A.class": b"1", "B.class": b"2", "C.class": b"3"})
        b = self.jar("b.jar", {"A.class": b"1", "B.class": b"x"})
        self.assertEqual(files.jar_differences(a, b), ["B.class", "C.class"])

    def test_remove_entry_leaves_the_other_entries_as_they_were(self):
        jar = self.jar("a.jar", {"a/Kept.class": b"kept", "a/Gone.jar": b"gone", "b/Other.txt": b"other"})
        files.remove_entry(jar, "a/Gone.jar")
        with zipfile.ZipFile(jar) as archive:
            self.assertEqual(archive.namelist(), ["a/Kept.class", "b/Other.txt"])
            self.assertEqual(archive.read("a/Kept.class"), b"kept")
        self.assertEqual(sorted(path.name for path in self.base.iterdir()), ["a.jar"])

    def test_same_bytes_needs_both_files_as_cmp_does(self):
        a = self.tree("a", {"x": b"1", "y": b"1", "z": b"2"})
        self.assertTrue(files.same_bytes(a / "x", a / "y"))
        self.assertFalse(files.same_bytes(a / "x", a / "z"))
        self.assertFalse(files.same_bytes(a / "x", a / "missing"))

    def test_file_type_names_kinds_as_stat_does(self):
        a = self.tree("a", {"full": b"1", "empty": b""})
        os.mkfifo(a / "fifo")
        self.assertEqual(files.file_type(a / "full"), "regular file")
        self.assertEqual(files.file_type(a / "empty"), "regular empty file")
        self.assertEqual(files.file_type(a / "fifo"), "fifo")
        self.assertEqual(files.file_type(a), "directory")
        self.assertEqual(files.file_type(a / "missing"), "missing")

    def test_lines_sort_bytewise_and_are_written_one_a_line(self):
        lines = files.sorted_lines("b\tok\nB\tok\na\terror\n")
        self.assertEqual(lines, ["B\tok", "a\terror", "b\tok"])
        files.write_lines(self.base / "x.tsv", lines)
        self.assertEqual((self.base / "x.tsv").read_text(), "B\tok\na\terror\nb\tok\n")

    def test_join_keeps_shared_keys_in_the_first_order(self):
        before = ["1!a\tok", "1!b\tok", "2!c\terror"]
        after = ["1!b\tbroken", "2!c\tok", "3!d\tok"]
        self.assertEqual(files.join(before, after), [("1!b", "ok", "broken"), ("2!c", "error", "ok")])


if __name__ == "__main__":
    unittest.main()
