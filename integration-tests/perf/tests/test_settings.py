import unittest

from overhead import settings
from overhead.workloads import SUITES, WORKLOADS


def parse(*argv, **environ):
    return settings.parse(list(argv), environ)


class SettingsTest(unittest.TestCase):
    def test_without_anything_every_workload_runs_three_times_with_the_default_variants_and_profilers(self):
        chosen = parse()
        self.assertEqual((chosen.workloads, chosen.suites), (WORKLOADS, SUITES))
        self.assertEqual((chosen.runs, chosen.iterations, chosen.size, chosen.tracer_timeout), (3, "", "full", 120))
        self.assertEqual([variant.name for variant in chosen.variants],
                         ["default", "precise", "allocations", "lines", "call-sites", "probes"])
        self.assertEqual(chosen.variants[1].flags, ("--bba", "precise"))
        self.assertEqual(chosen.variants[2].flags, ("--bba", "default", "--metrics", "allocations"))
        self.assertEqual(chosen.variants[5].flags, ("--bba", "default", "--config", str(settings.PROBES)))
        self.assertTrue(settings.PROBES.is_file())
        self.assertEqual(chosen.alternatives, ("jfr", "async-profiler", "jvmti"))
        self.assertEqual((chosen.java_options, chosen.cpus, chosen.keep), ((), "", False))

    def test_quick_means_one_run_one_round_small_inputs_and_a_short_tracer_limit(self):
        chosen = parse("--quick", "h2", PERF_RUNS="5")
        self.assertEqual([workload.name for workload in chosen.workloads], ["h2"])
        self.assertEqual(chosen.suites, ())
        self.assertEqual((chosen.runs, chosen.iterations, chosen.size, chosen.tracer_timeout), (1, "1", "small", 30))

    def test_a_suite_named_alone_runs_alone(self):
        chosen = parse("lang3-tests")
        self.assertEqual((chosen.workloads, [suite.name for suite in chosen.suites]), ((), ["lang3-tests"]))
        chosen = parse("ecj", "lang3-tests")
        self.assertEqual([workload.name for workload in chosen.workloads], ["ecj"])
        self.assertEqual([suite.library for suite in chosen.suites], ["commons-lang3"])

    def test_the_variables_outrank_quick_where_they_did(self):
        chosen = parse("--quick", PERF_ITERATIONS="3", PERF_TRACER_TIMEOUT="9")
        self.assertEqual((chosen.iterations, chosen.tracer_timeout), ("3", 9))

    def test_empty_variables_mean_none_or_the_default(self):
        chosen = parse(PERF_VARIANTS="", PERF_ALTERNATIVES="", PERF_RUNS="", PERF_KEEP="")
        self.assertEqual((chosen.variants, chosen.alternatives, chosen.runs, chosen.keep), ((), (), 3, False))

    def test_java_options_are_a_word_list(self):
        chosen = parse(PERF_JAVA_OPTS=" -XX:ActiveProcessorCount=1  -Xint ", PERF_CPUS="0", PERF_KEEP="1")
        self.assertEqual(chosen.java_options, ("-XX:ActiveProcessorCount=1", "-Xint"))
        self.assertEqual((chosen.cpus, chosen.keep), ("0", True))

    def test_an_unknown_argument_is_a_usage_error(self):
        with self.assertRaisesRegex(settings.SettingsError, r"^usage: .*\[--quick\] \[h2\|lucene\|ecj\|lang3-tests\]"):
            parse("spark")

    def test_runs_and_rounds_must_be_numbers(self):
        with self.assertRaisesRegex(settings.SettingsError, "PERF_RUNS must be a positive number"):
            parse(PERF_RUNS="0")
        with self.assertRaisesRegex(settings.SettingsError, "PERF_ITERATIONS must be a number"):
            parse(PERF_ITERATIONS="two")
        with self.assertRaisesRegex(settings.SettingsError, "PERF_TRACER_TIMEOUT"):
            parse(PERF_TRACER_TIMEOUT="1m")


class VariantsTest(unittest.TestCase):
    def test_a_variant_is_a_name_and_its_flags_joined_by_commas(self):
        (cold,) = settings.parse_variants("cold=--bba,default,--exclude,org.h2.**")
        self.assertEqual((cold.name, cold.flags, cold.stress),
                         ("cold", ("--bba", "default", "--exclude", "org.h2.**"), False))
        self.assertEqual(cold.shown_flags(), "--bba default --exclude org.h2.**")

    def test_a_variant_starting_with_jp_stress_is_rewritten_by_the_stress_program(self):
        stress, padded = settings.parse_variants("stress=jp-stress padded=jp-stress,--pad,300")
        self.assertEqual((stress.flags, stress.stress), ((), True))
        self.assertEqual((padded.flags, padded.stress), (("--pad", "300"), True))
        self.assertEqual(padded.shown_flags(), "jp-stress --pad 300")

    def test_a_variant_needs_a_name_and_an_equals_sign(self):
        for spec in ("default", "=--bba", "a b=--bba", "x/y=--bba"):
            with self.subTest(spec), self.assertRaisesRegex(settings.SettingsError, "bad variant"):
                settings.parse_variants(spec)

    def test_a_variant_cannot_take_another_configuration_s_name_or_come_twice(self):
        for text in ("baseline=--bba", "jfr=--bba", "a=--bba a=--bba,precise"):
            with self.subTest(text), self.assertRaisesRegex(settings.SettingsError, "is taken"):
                settings.parse_variants(text)

    def test_a_variant_can_run_with_a_runtime_jar_of_its_own(self):
        chosen = parse(PERF_VARIANTS="before=--bba,precise after=--bba,precise",
                       PERF_RUNTIMES="before=/tmp/old/jp-runtime.jar")
        self.assertEqual([(v.name, v.flags, v.runtime) for v in chosen.variants],
                         [("before", ("--bba", "precise"), "/tmp/old/jp-runtime.jar"),
                          ("after", ("--bba", "precise"), "")])
        for text, message in (("nosuch=/a.jar", "names 'nosuch'"), ("before", "bad runtime"),
                              ("before=", "bad runtime")):
            with self.subTest(text), self.assertRaisesRegex(settings.SettingsError, message):
                parse(PERF_VARIANTS="before=--bba", PERF_RUNTIMES=text)
        with self.assertRaisesRegex(settings.SettingsError, "no jp instrument variant"):
            parse(PERF_VARIANTS="stress=jp-stress", PERF_RUNTIMES="stress=/a.jar")

    def test_a_variant_can_be_rewritten_by_an_engine_of_its_own(self):
        chosen = parse(PERF_VARIANTS="before=--bba,precise after=--bba,precise",
                       PERF_RUNTIMES="before=/tmp/old/jp-runtime.jar", PERF_ENGINES="before=/tmp/old/jp")
        self.assertEqual([(v.name, v.runtime, v.engine) for v in chosen.variants],
                         [("before", "/tmp/old/jp-runtime.jar", "/tmp/old/jp"), ("after", "", "")])
        with self.assertRaisesRegex(settings.SettingsError, "bad engine 'before' in PERF_ENGINES"):
            parse(PERF_VARIANTS="before=--bba", PERF_ENGINES="before")
        with self.assertRaisesRegex(settings.SettingsError, "PERF_ENGINES names 'nosuch'"):
            parse(PERF_VARIANTS="before=--bba", PERF_ENGINES="nosuch=/jp")

    def test_unknown_profilers_are_refused(self):
        self.assertEqual(settings.parse_alternatives(" jvmti  jfr "), ("jvmti", "jfr"))
        with self.assertRaisesRegex(settings.SettingsError, "unknown alternative 'yourkit'"):
            settings.parse_alternatives("jfr yourkit")


    def test_each_option_variant_extends_the_default_one_and_is_counted_against_it(self):
        variants = parse().variants
        self.assertEqual(settings.extended(variants), [("default", ["allocations", "lines", "call-sites", "probes"])])
        self.assertEqual([variant.records_options() for variant in variants], [False, False, True, True, True, True])

    def test_a_variant_extends_another_only_with_the_same_builds_and_more_flags_after_its_own(self):
        variants = parse(PERF_VARIANTS="a=--bba,precise b=--bba,precise,--lines c=--lines,--bba,precise "
                                       "d=--bba,precise,--lines,--call-sites e=--bba,precise,--lines",
                         PERF_RUNTIMES="e=/tmp/old.jar").variants
        self.assertEqual(settings.extended(variants), [("a", ["b"]), ("b", ["d"])])


if __name__ == "__main__":
    unittest.main()
