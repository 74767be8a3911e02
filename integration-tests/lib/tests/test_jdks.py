import os
import pathlib
import tempfile
import unittest
from unittest import mock

from jptest import jdks


def fake_jdk(home, version, jmods=False, image=False):
    (home / "bin").mkdir(parents=True)
    for tool in ["javac", "jimage"] if image else ["javac"]:
        (home / "bin" / tool).write_text("")
        os.chmod(home / "bin" / tool, 0o755)
    (home / "release").write_text(f'IMPLEMENTOR="x"\nJAVA_VERSION="{version}"\n')
    if jmods:
        (home / "jmods").mkdir()
        (home / "jmods" / "java.base.jmod").write_text("")
    if image:
        (home / "lib").mkdir()
        (home / "lib" / "modules").write_text("")
    return home


class JdksTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.base = pathlib.Path(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def test_version_comes_from_the_release_file(self):
        self.assertEqual(jdks.jdk_version(fake_jdk(self.base / "j", "17.0.15")), "17.0.15")
        self.assertIsNone(jdks.jdk_version(self.base / "none"))

    def test_jdk17_needs_its_jmods_and_the_right_major(self):
        without = fake_jdk(self.base / "a", "17.0.1")
        eleven = fake_jdk(self.base / "b", "11.0.2", jmods=True)
        good = fake_jdk(self.base / "c", "17.0.3", jmods=True)

        def has_jmods(home):
            return (home / "jmods" / "java.base.jmod").is_file()
        self.assertEqual(jdks.find_jdk(17, ["", str(without), str(eleven), str(good)], has_jmods), good)

    def test_jdk17_without_jmods_when_they_are_not_needed(self):
        without = fake_jdk(self.base / "a", "17.0.1")
        with mock.patch.dict(os.environ, {"JAVA_HOME": str(without)}):
            self.assertEqual(jdks.find_jdk17(with_jmods=False), without)
            self.assertNotEqual(jdks.find_jdk17(), without)

    def test_temurin25_none_means_none(self):
        with mock.patch.dict(os.environ, {"TEMURIN25_HOME": "none"}):
            self.assertIsNone(jdks.find_temurin25())

    def test_temurin25_home_is_taken_when_it_is_a_full_jdk_25(self):
        home = fake_jdk(self.base / "t", "25.0.3", image=True)
        with mock.patch.dict(os.environ, {"TEMURIN25_HOME": str(home)}):
            self.assertEqual(jdks.find_temurin25(), home)

    def test_the_default_home_is_java_home_else_debian_s_jdk_17(self):
        with mock.patch.dict(os.environ, {"JAVA_HOME": str(self.base)}):
            self.assertEqual(jdks.default_home(), self.base)
        with mock.patch.dict(os.environ, {"JAVA_HOME": ""}):
            self.assertEqual(jdks.default_home(), pathlib.Path("/usr/lib/jvm/java-17-openjdk-amd64"))


if __name__ == "__main__":
    unittest.main()
