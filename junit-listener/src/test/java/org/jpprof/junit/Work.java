package org.jpprof.junit;

import org.jpprof.runtime.MID;
import org.jpprof.runtime.RC;

/** Calls what instrumented code calls, for a method {@code sample.Work.<name>()V} that runs one bytecode. */
final class Work {
    private Work() {}

    static void run(String name) {
        RC rc = RC.current();
        rc.exit(rc.enter(MID.method("precise.sample/Work." + name + ".()V.1")), 1);
    }
}
