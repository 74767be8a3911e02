import unittest

from jptest import jp_lines

GRADLE = """> Task :compileJava UP-TO-DATE
jp: jpInstrument -> build/jp/classes/main: 1 rewritten, 9999 reused, 0 kept unchanged in 115 ms
jp: jpInstrument -> build/jp/classes/test: 0 rewritten, 5 reused in 3 ms
"""


class JpLinesTest(unittest.TestCase):
    def test_the_cli_summary_is_what_follows_instrument(self):
        text = "warning: a.B.c(): too large\ninstrument: 10 classes rewritten, 0 reused, 1 warning\n"
        self.assertEqual(jp_lines.cli_summary(text), "10 classes rewritten, 0 reused, 1 warning")
        self.assertEqual(jp_lines.cli_summary("nothing\n"), "")

    def test_the_plugin_summary_is_the_first_jpinstrument_line_after_its_directory(self):
        summary = jp_lines.plugin_summary(GRADLE)
        self.assertEqual(summary, "1 rewritten, 9999 reused, 0 kept unchanged in 115 ms")
        self.assertEqual(jp_lines.plugin_summary("BUILD SUCCESSFUL\n"), "")

    def test_the_plugin_line_is_the_first_jpinstrument_line_whole(self):
        self.assertEqual(jp_lines.plugin_line(GRADLE), "jp: jpInstrument -> build/jp/classes/main: 1 rewritten, "
                                                       "9999 reused, 0 kept unchanged in 115 ms")
        self.assertEqual(jp_lines.plugin_line("jp: jpInstrumentTest -> x: 1 rewritten\n"), "")

    def test_the_engine_time_ends_the_plugin_summary(self):
        self.assertEqual(jp_lines.engine_milliseconds("1 rewritten, 9999 reused in 115 ms"), 115)
        self.assertIsNone(jp_lines.engine_milliseconds(""))
        self.assertIsNone(jp_lines.engine_milliseconds("in 115 ms, then more"))

    def test_the_rewritten_count_starts_the_plugin_summary(self):
        self.assertEqual(jp_lines.rewritten("1 rewritten, 9999 reused in 115 ms"), 1)
        self.assertEqual(jp_lines.rewritten("10000 rewritten, 0 reused in 1851 ms"), 10000)
        self.assertIsNone(jp_lines.rewritten("task UP-TO-DATE"))


if __name__ == "__main__":
    unittest.main()
