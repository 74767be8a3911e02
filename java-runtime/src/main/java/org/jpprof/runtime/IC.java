package org.jpprof.runtime;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.IdentityHashMap;

/**
 * One node of a thread's calling-context tree: a method in one calling context, with how often it
 * was invoked there and how many of its own bytecodes it ran there.
 *
 * <p>Only the owning thread changes a node. Agents read nodes from the owning thread's
 * {@link Profiler#report} call, from terminated threads, and at JVM exit (best effort).
 */
public class IC {
    /** The method, or null for a thread's root. */
    public final MID mid;
    /**
     * The calling context, or null for a thread's root. Only the runtime changes it: a tree
     * detached from its root takes its top-level contexts along ({@link #detachChildren}).
     */
    public IC parent;
    /** Invocations of the method in this context. */
    public long calls;
    /** Bytecodes the method itself executed in this context. */
    public long bytecodes;

    /**
     * The children, an open-addressing table keyed by {@link MID#id}, once there are two; null
     * while there are fewer. Most contexts have no child or one (chains of calls deep in a tree),
     * and a table costs more than the context itself.
     */
    private IC[] children;
    private int childCount;
    /**
     * The child found last: most call sites call the same method again. While {@link #children}
     * is null, the only child, or {@link #NO_CHILD} for none.
     */
    private IC last = NO_CHILD;
    /**
     * {@link #last} of a context without children: a context of no method, which no lookup
     * matches. Never null, so that {@link #profileCall} needs no null check.
     */
    private static final IC NO_CHILD = new IC(null, null);

    static {
        NO_CHILD.last = NO_CHILD; // it has no child either
    }

    IC(MID mid, IC parent) {
        this.mid = mid;
        this.parent = parent;
    }

    /** Adds a basic block's bytecodes. */
    public final void count(int n) {
        bytecodes += n;
    }

    /**
     * Adds a basic block's bytecodes to its source line (with per-line counts on: each counted
     * block lies within one line). Its context's own count is added apart, as without lines.
     */
    public final void line(int line, int n) {
        // Only an engine and a runtime of different versions could ask another context.
        if (this instanceof ExtraIC) ((ExtraIC) this).addLine(line, n);
    }

    /**
     * Adds one to the exact metric {@code name} (a string constant of the calling class): before
     * an allocating instruction, {@code allocations:} and the type's Java name (with allocation
     * counts on); before a probe's instruction, the probe's metric.
     */
    public final void metric(String name) {
        add(name, 1);
    }

    /**
     * Calls a probe's {@code handler} for an instruction of {@code caller} that runs in this
     * context (the context of the instruction's method), with the call's receiver and arguments
     * for a call probe, the lock or the exception and none for {@code monitorenter} or
     * {@code athrow}, null and none otherwise ({@link Probes}).
     */
    public final void probe(Object receiver, Object[] arguments, String handler, Class<?> caller) {
        Probes.call(this, handler, caller, receiver, arguments);
    }

    /** Adds {@code n} to the exact metric {@code name}. */
    final void add(String name, long n) {
        if (this instanceof ExtraIC) ((ExtraIC) this).addMetric(name, n);
    }

    /** The exact extra metrics; null when none. */
    final MetricCounts metrics() {
        return this instanceof ExtraIC ? ((ExtraIC) this).metricCounts() : null;
    }

    /** The per-line counts; null when none. */
    final LineCounts lines() {
        return this instanceof ExtraIC ? ((ExtraIC) this).lineCounts() : null;
    }

    /**
     * The child context for {@code mid}, created when new, with its invocation counted. Small
     * enough for C1 to inline, as {@link RC#current} explains.
     */
    public final IC profileCall(MID mid) {
        IC child = last;
        if (child.mid == mid) {
            child.calls++;
            return child;
        }
        return profileOtherCall(mid);
    }

    /** {@link #profileCall} when {@code mid} is not the child found last. */
    private IC profileOtherCall(MID mid) {
        IC child = find(mid);
        last = child;
        child.calls++;
        return child;
    }

    /**
     * Stores the call site of the invoke this context's method is about to run (with call sites
     * on): {@code site} is {@code line << 16 | bci}, {@code target} the hash of the invoked
     * method's name and descriptor ({@link MID#signature}). Only contexts of methods instrumented
     * with call sites are asked, and they are {@link SiteIC}s.
     */
    public final void site(int site, int target) {
        SiteIC self = (SiteIC) this;
        self.pendingSite = site;
        self.pendingTarget = target;
    }

    /**
     * {@code mid}, called with this context current, keyed by the call site this context's method
     * stored when that is where {@code mid} was called from: the site's target is {@code mid}'s
     * name and descriptor, so a site stored before an invoke of uninstrumented code is not taken by
     * a callback of another name. A site keys one call; a context without call sites gives
     * {@code mid} itself.
     */
    final MID calledAt(MID mid) {
        if (!(this instanceof SiteIC)) return mid;
        SiteIC self = (SiteIC) this;
        int site = self.pendingSite;
        if (site == MID.NO_SITE || self.pendingTarget != mid.signature) return mid;
        self.pendingSite = MID.NO_SITE;
        return mid.at(site);
    }

    /**
     * A new child context for {@code mid}: a {@link SiteIC} for a method instrumented with call
     * sites, an {@link ExtraIC} for one that counts lines or metrics.
     */
    private IC newChild(MID mid) {
        // The frame name is made with the method's first context, not while the profile is
        // written, when the heap may be short.
        mid.frame();
        if (mid.callSites) return new SiteIC(mid, this);
        return mid.extra ? new ExtraIC(mid, this) : new IC(mid, this);
    }

    /** The child for {@code mid}, created when new; the caller makes it {@link #last}. */
    private IC find(MID mid) {
        IC[] table = children;
        if (table == null) {
            IC only = last;
            if (only == NO_CHILD) {
                // A root may take a tree back here: then look again, in that tree.
                return firstChild() ? find(mid) : newChild(mid);
            }
            table = children = new IC[4];
            table[only.mid.id & 3] = only;
            childCount = 1;
        }
        int mask = table.length - 1;
        for (int i = mid.id & mask;; i = (i + 1) & mask) {
            IC child = table[i];
            if (child == null) {
                child = newChild(mid);
                table[i] = child;
                if (++childCount * 2 > table.length) {
                    grow();
                }
                return child;
            }
            if (child.mid == mid) {
                return child;
            }
        }
    }

    /**
     * This context gets its first child (again, after its children were detached or dropped).
     * Whether it has children now: a thread's root may have taken a tree back instead.
     */
    boolean firstChild() {
        return false;
    }

    /**
     * Makes the children of {@code tree} (a parentless tree this context's thread counts into
     * from now on) the children of this context, which has none.
     */
    final void adoptChildren(IC tree) {
        // Listed first: what fails for want of memory fails before anything changed.
        for (IC child : tree.children()) {
            child.parent = this;
        }
        children = tree.children;
        childCount = tree.childCount;
        last = tree.last;
    }

    /** Whether this context has a child. */
    final boolean hasChildren() {
        return children != null || last != NO_CHILD;
    }

    /**
     * Moves the children to a new parentless context and forgets them here: the default agent
     * takes a root's tree this way, and the root starts anew. Readers on other threads see the
     * children either here or not at all.
     */
    final IC detachChildren() {
        IC detached = new IC(null, null);
        // Re-parented, so that the detached tree keeps nothing of this context (a thread's root) alive.
        detached.adoptChildren(this);
        dropChildren();
        return detached;
    }

    /**
     * Adds the counts of the tree below {@code from} to the tree below this context, context by
     * context, creating what is missing. Methods match by identity: this is the cheap merge, for
     * the many small trees of short-lived threads. Iterative: trees of recursions are deep.
     * {@code work} is scratch space, empty before and after.
     */
    final void addTree(IC from, ArrayDeque<IC> work) {
        work.push(from);
        work.push(this);
        while (!work.isEmpty()) {
            IC target = work.pop();
            IC source = work.pop();
            IC[] table = source.children;
            if (table == null) {
                if (source.last == NO_CHILD) continue;
                table = new IC[] {source.last};
            }
            for (IC child : table) {
                if (child == null) continue;
                IC merged = target.child(child.mid);
                merged.calls += child.calls;
                merged.bytecodes += child.bytecodes;
                // The same method's contexts, so both are ExtraICs or neither.
                if (child instanceof ExtraIC) ((ExtraIC) merged).addCounts((ExtraIC) child);
                if (child.hasChildren()) {
                    work.push(child);
                    work.push(merged);
                }
            }
        }
    }

    /** The child context for {@code mid}, created when new, nothing counted. */
    private IC child(MID mid) {
        IC child = last;
        if (child.mid != mid) {
            child = find(mid);
            last = child;
        }
        return child;
    }

    /**
     * Moves the counts of the tree below this context (a thread's root) into a new parentless
     * tree and zeroes them here: the periodic agent hands a running thread's work over this way,
     * from the thread's own report, while its methods keep their nodes. A context with nothing
     * counted since the last move is in the new tree only on the way to one that has counts.
     * Iterative: trees of recursions are deep.
     */
    final IC takeCounts() {
        IC taken = new IC(null, null);
        // The copy of every context moved so far, and of this one: copies are made top down.
        IdentityHashMap<IC, IC> copies = new IdentityHashMap<IC, IC>();
        copies.put(this, taken);
        ArrayDeque<IC> work = new ArrayDeque<IC>();
        work.push(this);
        while (!work.isEmpty()) {
            IC from = work.pop();
            ExtraIC extra = from instanceof ExtraIC ? (ExtraIC) from : null;
            if (from.calls != 0 || from.bytecodes != 0 || (extra != null && extra.hasCounts())) {
                IC copy = copyOf(from, copies);
                copy.calls = from.calls;
                copy.bytecodes = from.bytecodes;
                from.calls = 0;
                from.bytecodes = 0;
                if (extra != null) extra.moveCountsTo((ExtraIC) copy);
            }
            for (IC child : from.children()) {
                work.push(child);
            }
        }
        return taken;
    }

    /** The copy of {@code node} in {@code copies}, made with those of its ancestors when missing. */
    private static IC copyOf(IC node, IdentityHashMap<IC, IC> copies) {
        ArrayDeque<IC> missing = new ArrayDeque<IC>();
        IC copy;
        for (IC at = node; (copy = copies.get(at)) == null; at = at.parent) {
            missing.push(at);
        }
        while (!missing.isEmpty()) {
            IC at = missing.pop();
            copy = copy.child(at.mid);
            copies.put(at, copy);
        }
        return copy;
    }

    /** Forgets the children, which the default agent merged already. */
    final void dropChildren() {
        children = null;
        childCount = 0;
        last = NO_CHILD;
    }

    private void grow() {
        IC[] old = children;
        IC[] table = new IC[old.length * 2];
        int mask = table.length - 1;
        for (IC child : old) {
            if (child == null) continue;
            int i = child.mid.id & mask;
            while (table[i] != null) {
                i = (i + 1) & mask;
            }
            table[i] = child;
        }
        children = table;
    }

    /**
     * The children of this context, in no particular order: a new array, which the caller may
     * keep. This is how agents walk a tree (see {@link Profiler} for when they may).
     */
    public final IC[] children() {
        IC[] table = children;
        if (table == null) {
            IC only = last;
            return only == NO_CHILD ? new IC[0] : new IC[] {only};
        }
        IC[] out = new IC[childCount];
        int n = 0;
        for (IC child : table) {
            if (child != null && n < out.length) out[n++] = child;
        }
        // Fewer only when another thread reads a tree that is changing (at JVM exit).
        return n == out.length ? out : Arrays.copyOf(out, n);
    }
}
