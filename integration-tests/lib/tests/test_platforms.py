import unittest

from jptest import platforms

RELEASED = "linux-x86_64 x86_64-unknown-linux-gnu\nwindows-x86_64 x86_64-pc-windows-gnu\n"


class PlatformsTest(unittest.TestCase):
    def test_released_gives_each_line_s_platform_and_rust_target(self):
        self.assertEqual(platforms.released(RELEASED),
                         [platforms.Platform("linux-x86_64", "x86_64-unknown-linux-gnu"),
                          platforms.Platform("windows-x86_64", "x86_64-pc-windows-gnu")])

    def test_checked_libraries_are_the_ok_lines(self):
        log = "ok linux-x86_64: ELF x86-64\nchecking\nok windows-x86_64: PE32+ x86-64\nbroken: no\n"
        self.assertEqual(platforms.checked_libraries(log),
                         ["ok linux-x86_64: ELF x86-64", "ok windows-x86_64: PE32+ x86-64"])

    def test_engine_run_reads_the_platform_library_and_counts_of_a_windows_log(self):
        log = "os Windows 10 / amd64\r\nlibrary jp_jni-0123abcd.dll\r\nrewritten 3, unchanged 0, copied 1, errors 0\r\n"
        self.assertEqual(platforms.engine_run(log),
                         platforms.EngineRun("Windows 10 / amd64", "jp_jni-0123abcd.dll",
                                             "rewritten 3, unchanged 0, copied 1, errors 0"))

    def test_engine_run_of_a_log_without_its_lines_gives_blanks_and_the_last_line(self):
        self.assertEqual(platforms.engine_run("Error: could not load\n"),
                         platforms.EngineRun("", "", "Error: could not load"))
        self.assertEqual(platforms.engine_run(""), platforms.EngineRun("", "", ""))

    def test_the_unsupported_platform_message_must_name_the_platform_and_every_supported_one(self):
        log = ("Exception in thread \"main\" org.jpprof.engine.EngineException: no library for freebsd-x86_64 "
               "(it has linux-x86_64, windows-x86_64)\n\tat org.jpprof.engine.Engine.load(Engine.java:1)\n")
        self.assertEqual(platforms.unsupported_platform_message(log, "freebsd-x86_64",
                                                                ["linux-x86_64", "windows-x86_64"]),
                         "no library for freebsd-x86_64 (it has linux-x86_64, windows-x86_64)")
        self.assertIsNone(platforms.unsupported_platform_message(log, "freebsd-x86_64",
                                                                 ["linux-x86_64", "macos-aarch64"]))
        self.assertIsNone(platforms.unsupported_platform_message(log, "openbsd-x86_64", ["linux-x86_64"]))


if __name__ == "__main__":
    unittest.main()
