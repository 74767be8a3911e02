package org.jpprof.runtime;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Threads' calling-context trees merged into one per thread group: the same method in the same
 * context of the same group, called from the same call site (with call sites on), adds up.
 * Methods are told apart by frame name ({@code class.method(descriptor)}), not by {@link MID}
 * identity: a class loaded by two class loaders has two identifiers but one name, and a profile
 * may not hold two nodes with the same parent and frame name. Keeping names rather than
 * identifiers also keeps no identifier alive. Not thread-safe; the default agent guards it.
 *
 * <p>A program's finished work can be millions of contexts, so a node is kept small: its
 * children are an open-addressing table of nodes keyed by the frame name's hash (the name is
 * the {@link MID}'s own string, shared, not a copy), with no map entry per child.
 */
final class ProfileTree {
    /** One merged context. */
    static final class Node {
        final String frame;
        /** The call site ({@link MID#site}), or {@link MID#NO_SITE}. */
        final int site;
        /** The enclosing context; null for the root and for top-level contexts. */
        final Node parent;
        long calls;
        long bytecodes;
        /** The children by frame name's hash, open addressing; null while there are none. */
        private Node[] children;
        private int childCount;

        Node(String frame, int site, Node parent) {
            this.frame = frame;
            this.site = site;
            this.parent = parent;
        }

        /** The child for {@code frame} called from {@code site}, created with no counts when new. */
        Node child(String frame, int site) {
            Node[] table = children;
            if (table == null) table = children = new Node[2];
            int mask = table.length - 1;
            for (int i = spread(frame.hashCode()) & mask;; i = (i + 1) & mask) {
                Node child = table[i];
                if (child == null) {
                    child = new Node(frame, site, this.frame == null ? null : this);
                    table[i] = child;
                    if (++childCount * 4 > table.length * 3) grow();
                    return child;
                }
                if (child.site == site && child.frame.equals(frame)) return child;
            }
        }

        /** The children, in no particular order. */
        Node[] children() {
            if (children == null) return new Node[0];
            Node[] out = new Node[childCount];
            int n = 0;
            for (Node child : children) {
                if (child != null) out[n++] = child;
            }
            return out;
        }

        private void grow() {
            Node[] old = children;
            Node[] table = new Node[old.length * 2];
            int mask = table.length - 1;
            for (Node child : old) {
                if (child == null) continue;
                int i = spread(child.frame.hashCode()) & mask;
                while (table[i] != null) i = (i + 1) & mask;
                table[i] = child;
            }
            children = table;
        }

        /** String hashes differ mostly in their low bits' neighbours: mix the high bits in. */
        private static int spread(int hash) {
            return hash ^ (hash >>> 16);
        }
    }

    /** The contexts of one thread group, and how many threads it had. */
    static final class Group {
        final Node root = new Node(null, MID.NO_SITE, null);
        long threads;
    }

    /** The contexts of no thread group. */
    final Node root = new Node(null, MID.NO_SITE, null);
    /** The thread groups, by name: in the order they are written. */
    final Map<String, Group> groups = new TreeMap<String, Group>();
    /** Per-line counts by frame name, merged over every context of the frame, in every group. */
    final Map<String, LineCounts> lines = new HashMap<String, LineCounts>();
    /**
     * The exact extra metrics of the contexts that have any, beside the nodes: without them, a
     * node costs nothing more.
     */
    final Map<Node, MetricCounts> metrics = new IdentityHashMap<Node, MetricCounts>();

    /** The thread group {@code name}, created empty when new. */
    Group group(String name) {
        Group group = groups.get(name);
        if (group == null) {
            group = new Group();
            groups.put(name, group);
        }
        return group;
    }

    private void addLines(String frame, LineCounts from) {
        if (from != null) lines.put(frame, LineCounts.add(lines.get(frame), from));
    }

    /**
     * Adds the tree below {@code top} (a thread's root, say) to thread group {@code group}.
     * Iterative: trees of deep recursions are deep.
     */
    void add(String group, IC top) {
        ArrayDeque<Object> work = new ArrayDeque<Object>();
        work.push(top);
        work.push(group(group).root);
        while (!work.isEmpty()) {
            Node into = (Node) work.pop();
            IC from = (IC) work.pop();
            for (IC child : from.children()) {
                Node merged = into.child(child.mid.frame(), child.mid.site);
                merged.calls += child.calls;
                merged.bytecodes += child.bytecodes;
                addLines(child.mid.frame(), child.lines());
                MetricCounts counted = child.metrics();
                if (counted != null) metrics.put(merged, MetricCounts.add(metrics.get(merged), counted));
                work.push(child);
                work.push(merged);
            }
        }
    }
}
