import pathlib
import tempfile
import unittest

from jptest import commands


class CommandsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.log = pathlib.Path(self.dir.name) / "run.log"

    def tearDown(self):
        self.dir.cleanup()

    def test_the_log_holds_stdout_and_stderr_and_the_status_is_returned(self):
        status = commands.run_logged(["sh", "-c", "echo out; echo err >&2; exit 3"], self.log)
        self.assertEqual(status, 3)
        self.assertEqual(sorted(commands.read_text(self.log).splitlines()), ["err", "out"])

    def test_a_command_runs_in_the_environment_it_is_given(self):
        status = commands.run_logged(["sh", "-c", 'echo "$JP_SEEN"; exit 4'], self.log,
                                     env={"PATH": "/usr/bin:/bin", "JP_SEEN": "given"})
        self.assertEqual(status, 4)
        self.assertEqual(commands.read_text(self.log), "given\n")

    def test_a_command_past_its_time_limit_returns_124_as_timeout_does(self):
        self.assertEqual(commands.run_logged(["sleep", "5"], self.log, timeout=0.2), 124)
        self.assertEqual(commands.stdout_of(["sleep", "5"], timeout=0.2), ("", 124))

    def test_a_command_past_its_time_limit_gets_sigterm_so_its_shutdown_work_runs(self):
        marker = self.log.with_name("terminated")
        script = f"trap 'echo shut down > {marker}; exit 0' TERM; sleep 5 & wait"
        self.assertEqual(commands.run_logged(["sh", "-c", script], self.log, timeout=0.5), 124)
        self.assertEqual(marker.read_text(), "shut down\n")

    def test_tail_gives_the_last_lines_and_a_missing_log_reads_empty(self):
        self.log.write_text("1\n2\n3\n")
        self.assertEqual(commands.tail(self.log, 2), "2\n3")
        self.assertEqual(commands.read_text(self.log.with_name("none.log")), "")


if __name__ == "__main__":
    unittest.main()
