package org.jpprof.runtime;

import java.lang.ref.WeakReference;
import java.util.Arrays;

/**
 * A thread's root context. Instrumented code finds it with {@link #current()}, enters a method's
 * context under {@link #top} and restores {@code top} on every way out of the method.
 */
public final class RC extends IC {
    /** How many threads find their root on the fast path at once, at best; a power of two. */
    static final int SLOT_COUNT = 1 << 12;
    /**
     * Roots by thread id ({@link ThreadIds}: unique per thread, and no subclass can change it):
     * two loads and one compare on the fast path. A thread takes its slot when the slot is free
     * or its holder has ended, never from a live thread, so a thread that holds a slot finds its
     * root there until it ends. A thread that finds its slot held keeps its root in
     * {@link #LOCAL} for good.
     */
    private static final RC[] SLOTS = new RC[SLOT_COUNT];
    private static final int MASK = SLOT_COUNT - 1;
    /** Guard slot changes (a thread's first lookup only); the fast path reads without them. */
    private static final Object[] SLOT_LOCKS = new Object[64];
    /** The id of roots made while thread ids cannot be read: the fast path never matches it. */
    private static final long NO_ID = -1;
    /**
     * What a free slot holds: a root of no thread, whose id no thread has. The fast path then
     * needs no null check, which keeps it within C1's inlining limit.
     */
    private static final RC FREE = new RC();

    static {
        for (int i = 0; i < SLOT_LOCKS.length; i++) SLOT_LOCKS[i] = new Object();
        Arrays.fill(SLOTS, FREE);
    }
    /** Where a thread whose slot a live thread held finds its root. */
    private static final ThreadLocal<RC> LOCAL = new ThreadLocal<RC>();
    /**
     * Slots for which a thread put its root in {@link #LOCAL}. Only a thread's own mark matters to
     * it, so plain writes do: a new thread of an unmarked slot needs no ThreadLocal at all, which
     * spares millions of short-lived threads a thread-local map each.
     */
    private static final boolean[] IN_LOCAL = new boolean[SLOT_COUNT];

    /** The owning thread's id: what the fast path compares (a reference would cost a load more). */
    private final long threadId;
    /** The owning thread, weakly: a root keeps no thread alive. */
    private final WeakReference<Thread> owner;
    /**
     * The group of the owning thread ({@link ThreadGroups#of}), from its name when the root was
     * made: a thread renamed later stays in its first group.
     */
    final String threadGroup;
    /** The innermost active context; the root itself while no instrumented method runs. */
    public IC top = this;
    /** Bytecodes (an upper bound) left before the agent's next report for this thread. */
    public long activation = Long.MAX_VALUE;
    /** The agent this thread reports to; null when there is none. */
    private Profiler profiler;
    private boolean reporting;
    /** Whether a probe's handler runs on this thread ({@link Probes}). */
    boolean inProbe;
    /** How often this thread's outermost instrumented method returned; the default agent's. */
    int returns;
    /** Whether every return to the root hands the tree over; the default agent's. */
    boolean foldEveryReturn;
    /** How many of the default agent's resets this root has taken in (its counts dropped). */
    int resets;
    /** Whether this root is in its thread's slot, where the default agent finds it. */
    boolean inSlot;
    /** Where the default agent keeps this thread's work apart; set when it registers the root. */
    DefaultAgent.Group group;
    /**
     * The open test contexts, outermost first, each followed by the context that was current
     * when it began: {@code [test, before, test, before, ...]}. Null until a test begins.
     */
    private IC[] tests;
    private int openTests;

    RC(Thread owner) {
        super(null, null);
        this.threadId = ThreadIds.AVAILABLE ? ThreadIds.of(owner) : NO_ID;
        this.owner = new WeakReference<Thread>(owner);
        this.threadGroup = ThreadGroups.of(owner.getName());
    }

    /** {@link #FREE}. */
    private RC() {
        super(null, null);
        this.threadId = NO_ID;
        this.owner = new WeakReference<Thread>(null);
        this.threadGroup = ThreadGroups.OTHER;
    }

    /**
     * The calling thread's root, created and registered with the agent on first use.
     *
     * <p>Every method on the fast path of an entry, an exit or a loop header is kept small enough
     * for C1 to inline it where it is called: 35 bytes of bytecode in an instrumented method, 90%
     * of its caller's limit below that (31 bytes, then 27, 24...). C1 compiles most of a short
     * run's code, a test suite's above all, and a call it does not inline costs more than the
     * work inside. The rare paths are methods of their own.
     */
    public static RC current() {
        long id = ThreadIds.current();
        RC rc = SLOTS[(int) id & MASK];
        if (rc.threadId == id) return rc;
        return slowPath();
    }

    private static RC slowPath() {
        Thread thread = Thread.currentThread();
        int slot = (int) ThreadIds.of(thread) & MASK;
        RC held = SLOTS[slot];
        // Without ids every thread keeps its root in LOCAL: slower, still right.
        RC rc = IN_LOCAL[slot] || !ThreadIds.AVAILABLE ? LOCAL.get() : null;
        if (rc != null) {
            return rc;
        }
        rc = new RC(thread);
        // Published before the agent runs, so that instrumented code the agent's work may reach
        // (class initializers, say) finds this root instead of recursing.
        if (ThreadIds.AVAILABLE && !held.ownerAlive() && claim(slot, held, rc)) {
            rc.inSlot = true;
            held.evicted();
        } else {
            IN_LOCAL[slot] = true;
            LOCAL.set(rc);
        }
        Profiler profiler = Agents.profiler();
        if (profiler != null) {
            rc.attach(profiler, thread);
        }
        return rc;
    }

    /** Puts {@code rc} in {@code slot} if {@code held} is still there. */
    private static boolean claim(int slot, RC held, RC rc) {
        synchronized (SLOT_LOCKS[slot & (SLOT_LOCKS.length - 1)]) {
            if (SLOTS[slot] != held) return false;
            SLOTS[slot] = rc;
            return true;
        }
    }

    /** The root in slot {@code i} (of {@link #SLOT_COUNT}), or null; for other threads than its own. */
    static RC slotRoot(int i) {
        synchronized (SLOT_LOCKS[i & (SLOT_LOCKS.length - 1)]) {
            RC root = SLOTS[i];
            return root == FREE ? null : root;
        }
    }

    private boolean ownerAlive() {
        Thread thread = owner.get();
        return thread != null && thread.isAlive();
    }

    /**
     * Enters {@code mid}'s context under {@link #top}, checking the agent's activation counter;
     * null, with nothing counted, while recording is stopped ({@link Recording}): the method then
     * runs as the original.
     */
    public final IC enter(MID mid) {
        if (spend(mid) && Recording.on) return top = top.profileCall(mid);
        return enterSlowly(mid);
    }

    /** Takes {@code mid}'s bound from the activation counter; whether some is left. */
    private boolean spend(MID mid) {
        return (activation -= mid.bound) > 0;
    }

    /** {@link #enter} when the counter ran out or recording is stopped, its bound spent. */
    private IC enterSlowly(MID mid) {
        if (!Recording.on) {
            activation += mid.bound; // nothing entered, nothing spent
            return null;
        }
        // The report comes first, under the caller: what it does to the tree (hand the counts
        // over, drop them at a reset) is done before this call is counted.
        triggerReport(top);
        return top = top.profileCall(mid);
    }

    /** {@link #enter}, for a method instrumented with call sites: its context is keyed by its call site too. */
    public final IC enterAt(MID mid) {
        // Keyed before enter's report: the site is the caller's, whatever the report runs.
        return Recording.on ? enter(top.calledAt(mid)) : null;
    }

    /** {@link #leaf}, for a method instrumented with call sites. */
    public static IC leafAt(MID mid, int bytecodes) {
        if (!Recording.on) return null;
        IC caller = current().top;
        IC ic = caller.profileCall(caller.calledAt(mid));
        ic.bytecodes += bytecodes;
        return ic;
    }

    /**
     * The calling thread's context of a leaf method (no calls, no loops, nothing that can run other
     * code of the thread) under {@link #top}, with its invocation and the {@code bytecodes} of its
     * first block counted. It does not become current: nothing could see it, so leaving it needs
     * no restore. Null while recording is stopped.
     */
    public static IC leaf(MID mid, int bytecodes) {
        if (!Recording.on) return null;
        IC ic = current().top.profileCall(mid);
        ic.bytecodes += bytecodes;
        return ic;
    }

    /**
     * Enters a static initializer's context, directly under the root; the caller restores top.
     * Null while recording is stopped.
     */
    public final IC enterRoot(MID mid) {
        if (!Recording.on) return null;
        IC ic = profileCall(mid);
        top = ic;
        return ic;
    }

    /**
     * Leaves {@code ic}, adding the last {@code bytecodes} it ran: its caller's context becomes
     * current again. Instrumented methods count their bytecodes in a local variable and flush it
     * here and at loop headers.
     */
    public final void exit(IC ic, int bytecodes) {
        ic.bytecodes += bytecodes;
        IC parent = ic.parent;
        top = parent;
        if (parent == this) {
            returnedToRoot();
        }
    }

    /**
     * The thread's outermost instrumented method returned: nothing holds a node of this tree, and
     * a short-lived thread has just done all its instrumented work. The default agent may take
     * the tree over now rather than when the thread has been collected.
     */
    private void returnedToRoot() {
        if (profiler instanceof DefaultAgent) {
            ((DefaultAgent) profiler).returned(this);
        }
    }

    /** The agent this root reports to, or null. */
    Profiler profiler() {
        return profiler;
    }

    /** This root, of an ended thread, left its slot to another thread's root. */
    private void evicted() {
        if (profiler instanceof DefaultAgent) {
            ((DefaultAgent) profiler).evicted(this);
        }
    }

    @Override
    final boolean firstChild() {
        return profiler instanceof DefaultAgent && ((DefaultAgent) profiler).resumed(this);
    }

    /**
     * Begins the test context of {@code test} (a top-level context: a child of this root, its
     * invocation counted) and makes it current, so that what the thread runs until
     * {@link #endTest} counts under it. Nothing while recording is stopped.
     */
    final void beginTest(MID test) {
        if (!Recording.on) return;
        IC ic = profileCall(test);
        if (tests == null) {
            tests = new IC[8];
        } else if (openTests * 2 == tests.length) {
            tests = Arrays.copyOf(tests, tests.length * 2);
        }
        tests[openTests * 2] = ic;
        tests[openTests * 2 + 1] = top;
        openTests++;
        top = ic;
    }

    /**
     * Ends the test context of {@code test}, and any opened in it and left open: the context that
     * was current when it began (the enclosing test's, or the root) is current again. Once no
     * test is open and the thread is back at its root, nothing holds a node of the tree, which
     * the default agent may take over as after a return to the root. A test that is not open is
     * ignored.
     */
    final void endTest(MID test) {
        for (int i = openTests - 1; i >= 0; i--) {
            if (tests[i * 2].mid != test) continue;
            IC before = tests[i * 2 + 1];
            Arrays.fill(tests, i * 2, openTests * 2, null);
            openTests = i;
            top = before;
            if (before == this && openTests == 0) {
                returnedToRoot();
            }
            return;
        }
    }

    /** Makes {@code ic} the current context. */
    public final void restore(IC ic) {
        top = ic;
    }

    /** At loop headers: adds the bytecodes run since the last flush, and checks the activation counter. */
    public final void poll(IC ic, int bytecodes) {
        ic.bytecodes += bytecodes;
        if (!spend(ic.mid)) triggerReport(ic);
    }

    /**
     * Registers this root, the root of {@code thread}, with {@code agent}, which it then reports
     * to. An agent that throws is reported on stderr and never called again for this thread.
     */
    void attach(Profiler agent, Thread thread) {
        try {
            activation = guard(agent.register(thread, this));
            profiler = agent;
        } catch (RuntimeException | Error e) {
            Agents.failed(e);
        }
    }

    /**
     * Asks this root's thread, from another thread, to report at its next activation check (a
     * method entry or a loop header). A plain write that races with the thread's own updates of
     * the counter: the thread may see it late, or lose it to its own update and report when its
     * counter runs out as usual. Either way its counts reach the agent, only later.
     */
    void requestReport() {
        activation = 0;
    }

    /**
     * Calls the agent's {@link Profiler#report}. Code that the report runs on this thread (an
     * instrumented class the agent uses, say) counts in the tree but triggers no report of its
     * own: the activation counter stays out of reach until the report returns.
     */
    private void triggerReport(IC current) {
        if (reporting) {
            activation = Long.MAX_VALUE;
            return;
        }
        reporting = true;
        try {
            activation = profiler == null ? Long.MAX_VALUE : guard(profiler.report(this, current));
        } catch (RuntimeException | Error e) {
            Agents.failed(e);
            profiler = null;
            activation = Long.MAX_VALUE;
        } finally {
            reporting = false;
        }
    }

    private static long guard(long bytecodes) {
        return bytecodes > 0 ? bytecodes : 1;
    }
}
