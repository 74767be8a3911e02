import unittest

from jptest import gc_log

G1_LOG = """[0.004s][info][gc] Using G1
[0.512s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 51M->3M(1024M) 2.345ms
[1.020s][info][gc] GC(1) Pause Young (Concurrent Start) (G1 Humongous Allocation) 300M->180M(1024M) 9.1ms
[1.030s][info][gc] GC(2) Concurrent Mark Cycle
[1.9s][info][gc] GC(3) Pause Full (System.gc()) 2G->1536K(1024M) 30ms
"""


class PeakHeapTest(unittest.TestCase):
    def test_the_peak_is_the_largest_heap_after_a_collection_in_mb(self):
        self.assertEqual(gc_log.peak_heap_mb(G1_LOG), 180)

    def test_pauses_that_collect_nothing_are_not_a_peak(self):
        log = ("GC(4) Pause Young (Normal) (G1 Evacuation Pause) 424M->307M(1324M) 66.776ms\n"
               "GC(5) Pause Remark 366M->366M(1234M) 8.186ms\n"
               "GC(5) Pause Cleanup 399M->399M(1234M) 0.140ms\n"
               "GC(6) Pause Young (Mixed) (G1 Evacuation Pause) 375M->310M(1234M) 2.061ms\n")
        self.assertEqual(gc_log.peak_heap_mb(log), 310)

    def test_sizes_in_kilobytes_and_gigabytes_are_converted(self):
        self.assertEqual(gc_log.peak_heap_mb("GC(0) Pause Young 2G->1G(4G) 1ms\n"), 1024)
        self.assertEqual(gc_log.peak_heap_mb("GC(0) Pause Young 2048K->512K(4096K) 1ms\n"), 0.5)

    def test_a_run_without_a_collection_has_no_peak(self):
        self.assertIsNone(gc_log.peak_heap_mb("[0.004s][info][gc] Using G1\n"))

    def test_the_option_writes_the_gc_log_to_the_file(self):
        self.assertEqual(gc_log.option("/tmp/x.gc"), "-Xlog:gc:file=/tmp/x.gc")
