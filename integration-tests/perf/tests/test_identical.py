import pathlib
import tempfile
import unittest
import zipfile

from overhead import identical


def write(directory, files, jar_entries):
    directory = pathlib.Path(directory)
    for name, data in files.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_bytes(data)
    with zipfile.ZipFile(directory / "lib.jar", "w") as jar:
        for name, data in jar_entries.items():
            jar.writestr(name, data)


class IdenticalTest(unittest.TestCase):
    def compare(self, second_files, second_entries):
        with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second:
            write(first, {"a/A.class": b"\xca\xfe1"}, {"b/B.class": b"\xca\xfe2", "META-INF/MANIFEST.MF": b"m"})
            write(second, second_files, second_entries)
            return identical.compare(first, second)

    def test_the_same_classes_in_directories_and_jars_are_counted_identical(self):
        self.assertEqual(self.compare({"a/A.class": b"\xca\xfe1"}, {"b/B.class": b"\xca\xfe2", "META-INF/MANIFEST.MF": b"m"}),
                         (2, []))

    def test_a_class_that_differs_or_is_missing_is_named_with_its_jar(self):
        classes, differing = self.compare({"a/A.class": b"\xca\xfe1", "a/C.class": b"c"}, {"b/B.class": b"\xca\xfe3"})
        self.assertEqual(classes, 1)
        self.assertEqual(differing, ["a/C.class", "lib.jar!META-INF/MANIFEST.MF", "lib.jar!b/B.class"])
