package org.jpprof.engine.hooked;

/** A class whose constructors get a hook in HookJarTest: one delegates, one returns twice. */
public final class HookTarget {
    final String name;

    public HookTarget() {
        this("default");
    }

    public HookTarget(String name) {
        if (name.isEmpty()) {
            this.name = "empty";
            return;
        }
        this.name = name;
    }
}
