package org.jpprof.runtime;

/**
 * The context of a method instrumented with call sites: it also holds the site of the invoke its
 * method ran last ({@link IC#site}), which the callee entered directly from it takes
 * ({@link IC#calledAt}). Kept per context rather than per thread, so that a static initializer
 * that an invoke triggers, running its own invokes in its own context, leaves the site to the
 * callee. Other contexts stay as small as they were. An {@link ExtraIC}, since lines or metrics
 * may be counted as well.
 */
final class SiteIC extends ExtraIC {
    /** {@code line << 16 | bci} of the invoke, or {@link MID#NO_SITE} once taken. */
    int pendingSite = MID.NO_SITE;
    /** {@link MID#signature} of the invoke's target. */
    int pendingTarget;

    SiteIC(MID mid, IC parent) {
        super(mid, parent);
    }
}
