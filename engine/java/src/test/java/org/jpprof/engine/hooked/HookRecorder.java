package org.jpprof.engine.hooked;

import java.util.ArrayList;
import java.util.List;

/** The hook of HookJarTest: records the name of each HookTarget it is handed. */
public final class HookRecorder {
    /** The names, in the order the hook saw them. */
    public static final List<String> SEEN = new ArrayList<>();

    private HookRecorder() {}

    public static void attach(HookTarget target) {
        SEEN.add(target.name);
    }
}
