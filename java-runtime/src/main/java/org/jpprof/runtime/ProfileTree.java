package org.jpprof.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Threads' calling-context trees merged into one per thread group: the same method in the same
 * context of the same group adds up.
 * Methods are told apart by frame name ({@code class.method(descriptor)}), not by {@link MID}
 * identity: a class loaded by two class loaders has two identifiers but one name, and a profile
 * may not hold two nodes with the same parent and frame name. Keeping names rather than
 * identifiers also keeps no identifier alive. Not thread-safe; the default agent guards it.
 */
final class ProfileTree {
    /** One merged context. */
    static final class Node {
        final String frame;
        /** The enclosing context; null for the root and for top-level contexts. */
        final Node parent;
        long calls;
        long bytecodes;
        private Map<String, Node> children;

        Node(String frame, Node parent) {
            this.frame = frame;
            this.parent = parent;
        }

        Node child(String frame) {
            if (children == null) children = new HashMap<String, Node>();
            Node child = children.get(frame);
            if (child == null) {
                child = new Node(frame, this.frame == null ? null : this);
                children.put(frame, child);
            }
            return child;
        }

        List<Node> children() {
            return children == null ? new ArrayList<Node>() : new ArrayList<Node>(children.values());
        }
    }

    /** The contexts of one thread group, and how many threads it had. */
    static final class Group {
        final Node root = new Node(null, null);
        long threads;
    }

    /** The contexts of no thread group. */
    final Node root = new Node(null, null);
    /** The thread groups, by name: in the order they are written. */
    final Map<String, Group> groups = new TreeMap<String, Group>();
    /** Per-line counts by frame name, merged over every context of the frame, in every group. */
    final Map<String, LineCounts> lines = new HashMap<String, LineCounts>();

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
        ArrayDeque<Object[]> work = new ArrayDeque<Object[]>();
        work.push(new Object[] {top, group(group).root});
        while (!work.isEmpty()) {
            Object[] item = work.pop();
            IC from = (IC) item[0];
            Node into = (Node) item[1];
            for (IC child : from.children()) {
                Node merged = into.child(child.mid.frame);
                merged.calls += child.calls;
                merged.bytecodes += child.bytecodes;
                addLines(child.mid.frame, child.lines());
                work.push(new Object[] {child, merged});
            }
        }
    }

    /** Adds another merged tree: its groups to the groups of the same names. */
    void add(ProfileTree other) {
        for (Map.Entry<String, LineCounts> entry : other.lines.entrySet()) {
            addLines(entry.getKey(), entry.getValue());
        }
        addNodes(other.root, root);
        for (Map.Entry<String, Group> entry : other.groups.entrySet()) {
            Group into = group(entry.getKey());
            into.threads += entry.getValue().threads;
            addNodes(entry.getValue().root, into.root);
        }
    }

    private static void addNodes(Node from, Node into) {
        ArrayDeque<Node[]> work = new ArrayDeque<Node[]>();
        work.push(new Node[] {from, into});
        while (!work.isEmpty()) {
            Node[] item = work.pop();
            for (Node child : item[0].children()) {
                Node merged = item[1].child(child.frame);
                merged.calls += child.calls;
                merged.bytecodes += child.bytecodes;
                work.push(new Node[] {child, merged});
            }
        }
    }
}
