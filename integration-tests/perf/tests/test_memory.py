import unittest

from overhead import memory, results, tables

G1_LOG = """[0.004s][info][gc] Using G1
[0.512s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 51M->3M(1024M) 2.345ms
[1.020s][info][gc] GC(1) Pause Young (Concurrent Start) (G1 Humongous Allocation) 300M->180M(1024M) 9.1ms
[1.030s][info][gc] GC(2) Concurrent Mark Cycle
[1.9s][info][gc] GC(3) Pause Full (System.gc()) 2G->1536K(1024M) 30ms
"""


class PeakHeapTest(unittest.TestCase):
    def test_the_peak_is_the_largest_heap_after_a_collection_in_mb(self):
        self.assertEqual(memory.peak_heap_mb(G1_LOG), 180)

    def test_sizes_in_kilobytes_and_gigabytes_are_converted(self):
        self.assertEqual(memory.peak_heap_mb("GC(0) Pause Young 2G->1G(4G) 1ms\n"), 1024)
        self.assertEqual(memory.peak_heap_mb("GC(0) Pause Young 2048K->512K(4096K) 1ms\n"), 0.5)

    def test_a_run_without_a_collection_has_no_peak(self):
        self.assertIsNone(memory.peak_heap_mb("[0.004s][info][gc] Using G1\n"))

    def test_the_option_writes_the_gc_log_to_the_file(self):
        self.assertEqual(memory.gc_log_option("/tmp/x.gc"), "-Xlog:gc:file=/tmp/x.gc")


class MemoryTablesTest(unittest.TestCase):
    def test_the_tables_show_the_baseline_s_megabytes_and_the_ratios(self):
        times = results.Times()
        for heap, rss in ((100, 400), (110, 420), (90, 380)):
            times.add("h2", "baseline", results.Run(True, False, "aa", 1, 1, heap, rss))
        for heap, rss in ((150, 600), (160, 620), (140, 580)):
            times.add("h2", "default", results.Run(True, False, "aa", 1, 1, heap, rss))
        lines = tables.memory_tables(times, ["h2"], ["baseline", "default"], 3)
        self.assertTrue(lines[1].startswith("Peak Java heap after a collection"))
        self.assertEqual(lines[2:5], ["workload baseline MB   noise        default",
                                      "h2              100     20%          1.50x",
                                      "geomean                              1.50x"])
        self.assertTrue(lines[6].startswith("Peak resident set size"))
        self.assertEqual(lines[8], "h2              400     10%          1.50x")

    def test_a_run_without_a_peak_is_left_out(self):
        times = results.Times()
        times.add("h2", "baseline", results.Run(True, False, "aa", 1, 1, None, 400))
        lines = tables.memory_tables(times, ["h2"], ["baseline", "default"], 1)
        self.assertEqual(lines[3], "h2              n/a       -            n/a")
