import pathlib
import tempfile
import unittest
import zipfile

from jptest import published_suites


class LibraryJarsTest(unittest.TestCase):
    def test_the_main_jar_is_the_library_s_own_the_others_include_the_tests_jar(self):
        with tempfile.TemporaryDirectory() as directory:
            for name in ("commons-lang3-3.17.0.jar", "commons-lang3-3.17.0-tests.jar", "commons-text-1.12.0.jar"):
                (pathlib.Path(directory) / name).touch()
            library = published_suites.library_jars("commons-lang3", directory)
            self.assertEqual((library.main.name, library.tests.name),
                             ("commons-lang3-3.17.0.jar", "commons-lang3-3.17.0-tests.jar"))
            self.assertEqual(library.others, f"{directory}/commons-lang3-3.17.0-tests.jar:"
                                             f"{directory}/commons-text-1.12.0.jar")


class UnpackResourcesTest(unittest.TestCase):
    def test_only_resources_are_unpacked_where_tests_look_for_them(self):
        with tempfile.TemporaryDirectory() as directory:
            tests = pathlib.Path(directory) / "tests.jar"
            with zipfile.ZipFile(tests, "w") as jar:
                for member in ("META-INF/MANIFEST.MF", "org/example/WordsTest.class", "org/example/words.txt"):
                    jar.writestr(member, "x")
            published_suites.unpack_resources(tests, pathlib.Path(directory) / "cwd")
            resources = pathlib.Path(directory) / "cwd" / "src" / "test" / "resources"
            self.assertEqual(sorted(str(path.relative_to(resources)) for path in resources.rglob("*.*")),
                             ["org/example/words.txt"])


class ConsoleCommandTest(unittest.TestCase):
    def test_jvm_options_come_before_the_class_path_and_the_launcher_ends_it(self):
        args = published_suites.console_command("java", "/l/console.jar", "/a.jar:/b.jar", "/t.jar", "/r",
                                                ["-Djp.output=/p.jpprof"], launcher_args=["--exclude-tag", "x"])
        self.assertEqual(args[:3], ["java", "-Xss4m", "-Xmx3g"])
        self.assertLess(args.index("-Djp.output=/p.jpprof"), args.index("-cp"))
        self.assertEqual(args[args.index("-cp") + 1], "/a.jar:/b.jar:/l/console.jar")
        self.assertEqual(args[-5:], ["--reports-dir=/r", "--scan-class-path=/t.jar", "--include-classname=^.*Test$",
                                     "--exclude-tag", "x"])


if __name__ == "__main__":
    unittest.main()
