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

    def test_a_measured_command_gives_its_status_and_its_own_peak_memory(self):
        measured = commands.run_measured(["python3", "-c", "b = bytearray(64 << 20); print(len(b))"], self.log)
        self.assertEqual(measured.status, 0)
        self.assertGreater(measured.peak_rss_kb, 64 << 10)
        self.assertGreater(measured.cpu_seconds, 0)
        self.assertEqual(commands.read_text(self.log), f"{64 << 20}\n")
        self.assertEqual(commands.run_measured(["sleep", "5"], self.log, timeout=0.2).status, 124)

    def test_waiting_for_a_line_ends_when_it_is_there_or_the_process_ends(self):
        process = commands.start_logged(["sh", "-c", "sleep 0.2; echo ready; sleep 5"], self.log)
        try:
            self.assertTrue(commands.wait_for_line(self.log, "ready", process, 10))
        finally:
            process.kill()
            process.wait()
        process = commands.start_logged(["sh", "-c", "echo other"], self.log)
        self.assertFalse(commands.wait_for_line(self.log, "ready", process, 10))
        process.wait()

    def test_tail_gives_the_last_lines_and_a_missing_log_reads_empty(self):
        self.log.write_text("1\n2\n3\n")
        self.assertEqual(commands.tail(self.log, 2), "2\n3")
        self.assertEqual(commands.read_text(self.log.with_name("none.log")), "")

    def test_found_and_first_match_read_a_log_by_lines_and_a_missing_log_as_empty(self):
        log = pathlib.Path(self.dir.name) / "build.log"
        log.write_text("> Task :jpInstrument\njp: jpInstrument -> build/jp: 3 rewritten\n")
        self.assertTrue(commands.found(r"^jp: jpInstrument -> ", log))
        self.assertFalse(commands.found(r"^rewritten", log))
        self.assertEqual(commands.first_match(r"[0-9]+ rewritten", log), "3 rewritten")
        self.assertEqual(commands.first_match(r"reused", log), "")
        self.assertFalse(commands.found(r".", log.with_name("missing.log")))

    def test_a_timed_command_leaves_its_cpu_seconds(self):
        cpu = self.log.with_name("run.cpu")
        self.assertEqual(commands.run_timed(["sh", "-c", "echo out"], self.log, cpu), 0)
        self.assertEqual(commands.read_text(self.log), "out\n")
        user, system = commands.cpu_seconds(cpu)
        self.assertGreaterEqual(user, 0)
        self.assertGreaterEqual(system, 0)

    def test_the_cpu_seconds_of_a_failed_command_follow_time_s_status_line(self):
        cpu = self.log.with_name("run.cpu")
        self.assertEqual(commands.run_timed(["sh", "-c", "exit 3"], self.log, cpu), 3)
        self.assertIn("non-zero status 3", commands.read_text(cpu))
        self.assertIsNotNone(commands.cpu_seconds(cpu))
        cpu.write_text("Command exited with non-zero status 1\n2.51 0.75\n")
        self.assertEqual(commands.cpu_seconds(cpu), (2.51, 0.75))

    def test_cpu_seconds_are_none_when_time_wrote_nothing_usable(self):
        cpu = self.log.with_name("run.cpu")
        self.assertIsNone(commands.cpu_seconds(cpu))
        cpu.write_text("Command terminated by signal 9\n")
        self.assertIsNone(commands.cpu_seconds(cpu))


    def test_a_started_command_runs_beside_the_suite_into_its_log(self):
        process = commands.start_logged(["sh", "-c", "pwd; echo err >&2; exit 4"], self.log, cwd=self.dir.name)
        self.assertEqual(process.wait(), 4)
        self.assertEqual(sorted(commands.read_text(self.log).splitlines()),
                         sorted([str(pathlib.Path(self.dir.name).resolve()), "err"]))


if __name__ == "__main__":
    unittest.main()
