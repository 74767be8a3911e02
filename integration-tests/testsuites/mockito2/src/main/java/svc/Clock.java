package svc;

/** A final class: only the inline mock maker can mock it. */
public final class Clock {
    public long now() {
        return System.nanoTime();
    }

    public String stamp(String what) {
        return what + "@" + now();
    }
}
