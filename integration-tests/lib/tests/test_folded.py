import unittest

from jptest import folded


class JvmNamesTest(unittest.TestCase):
    def test_signatures_become_descriptors_frame_by_frame(self):
        line = "demo.Fig4.main(java.lang.String[]):void;demo.Fig4.g(int):void 55"
        self.assertEqual(folded.jvm_names(line), "demo.Fig4.main([Ljava/lang/String;)V;demo.Fig4.g(I)V 55")

    def test_no_parameters_and_object_results_and_arrays_of_primitives(self):
        self.assertEqual(folded.jvm_names("a.B.m():java.util.List 3"), "a.B.m()Ljava/util/List; 3")
        self.assertEqual(folded.jvm_names("a.B.m(int[][],long):double[] 1"), "a.B.m([[IJ)[D 1")

    def test_a_call_site_stays_after_the_descriptor(self):
        line = "a.B.m():void;a.B.f(int):int @ line 12;a.B.g():void @ bci 7 4"
        self.assertEqual(folded.jvm_names(line), "a.B.m()V;a.B.f(I)I @ line 12;a.B.g()V @ bci 7 4")

    def test_frames_without_a_signature_stay_as_they_are(self):
        self.assertEqual(folded.jvm_names("[test] x#y();a.B.<clinit>():void 1"), "[test] x#y();a.B.<clinit>()V 1")
        self.assertEqual(folded.jvm_names("thread main 2"), "thread main 2")


class ComparisonTest(unittest.TestCase):
    def test_nonzero_drops_zero_lines_and_sorts_bytewise(self):
        self.assertEqual(folded.nonzero(["b 1", "a 0", "B 2", "", "a;c 3"]), ["B 2", "a;c 3", "b 1"])

    def test_lower_than_names_lower_and_missing_contexts_only(self):
        jp = ["a 5", "a;b 2", "a;c 7"]
        oracle = ["a 5", "a;b 3", "a;c 6", "a;d 1"]
        self.assertEqual(folded.lower_than(jp, oracle), ["a;b jp=2 oracle=3", "a;d jp=missing oracle=1"])

    def test_value_of_exactly_one_context(self):
        lines = ["a 1", "a;b 2"]
        self.assertEqual(folded.value(lines, "a"), "1")
        self.assertEqual(folded.value(lines, "a;b"), "2")
        self.assertEqual(folded.value(lines, "b"), "missing")

    def test_total_sums_every_line_or_one_context(self):
        lines = ["a 1", "a;b 2", "a;b 3", "", "a;c x"]
        self.assertEqual(folded.total(lines), 6)
        self.assertEqual(folded.total(lines, "a;b"), 5)
        self.assertEqual(folded.total(lines, "b"), 0)

    def test_total_ending_with_sums_the_contexts_whose_last_frame_matches(self):
        lines = ["m():void;w(int):int 3", "n():void;w(int):int 4", "w(int):int;m():void 9"]
        self.assertEqual(folded.total_ending_with(lines, "w(int):int"), 7)
        self.assertEqual(folded.total_ending_with(lines, "x():void"), 0)

    def test_summed_adds_up_equal_contexts_and_sorts_bytewise(self):
        lines = ["b;c 2", "a 1", "b;c 3", "", "B 4", "a;b 0"]
        self.assertEqual(folded.summed(lines), ["B 4", "a 1", "a;b 0", "b;c 5"])

    def test_read_gives_no_lines_for_a_missing_file(self):
        self.assertEqual(folded.read("/nonexistent/profile.folded"), [])


if __name__ == "__main__":
    unittest.main()
