package probes;

/** The methods the call probes of jp.toml match (`probes.Sink.record*`). */
final class Sink {
    int count;
    static int statics;

    void record(String name, int n, long tens, char letter, boolean even) {
        count++;
    }

    static void recordStatic(double value, int[] values) {
        statics += values.length;
    }
}
