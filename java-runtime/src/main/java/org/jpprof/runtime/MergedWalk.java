package org.jpprof.runtime;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The contexts of several trees merged by frame name and call site, visited in pre-order with siblings in
 * frame-name order, without the merged tree being built: the profile writer walks the finished
 * work and the trees of threads still running this way, so that writing a profile takes no second
 * copy of a tree that may be millions of contexts. The trees are {@link ProfileTree.Node}s and
 * {@link IC}s; a running thread's tree is read as it is while it changes (best effort).
 * Iterative: trees of deep recursions are deep.
 */
final class MergedWalk {
    private MergedWalk() {}

    /** What a walk calls for each merged context. */
    interface Visitor {
        /**
         * One merged context at {@code depth} (1 for a top-level one), called from {@code site}
         * ({@link MID#site}), its counts summed over {@code sources}, the nodes it merges; returns
         * whether to walk below it.
         */
        boolean context(String frame, int site, long calls, long bytecodes, int depth, List<Object> sources)
                throws IOException;
    }

    /** A merged context not visited yet. */
    private static final class Pending {
        final Key key;
        final List<Object> sources;
        final int depth;

        Pending(Key key, List<Object> sources, int depth) {
            this.key = key;
            this.sources = sources;
            this.depth = depth;
        }
    }

    /** What merges contexts: the frame name, then the call site; ordered so, sites after no site. */
    private static final class Key implements Comparable<Key> {
        final String frame;
        final int site;

        Key(Object node) {
            this.frame = frame(node);
            this.site = site(node);
        }

        @Override
        public int compareTo(Key other) {
            int byFrame = frame.compareTo(other.frame);
            return byFrame != 0 ? byFrame : compareSites(site, other.site);
        }

        /** {@link MID#NO_SITE} first, then sites by bci (the low 16 bits), then line. */
        static int compareSites(int a, int b) {
            int byBci = Integer.compare(bci(a), bci(b));
            return byBci != 0 ? byBci : Integer.compare(a, b);
        }

        private static int bci(int site) {
            return site == MID.NO_SITE ? -1 : site & 0xFFFF;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key && compareTo((Key) other) == 0;
        }

        @Override
        public int hashCode() {
            return frame.hashCode() * 31 + site;
        }
    }

    private static final Comparator<Object> BY_KEY = new Comparator<Object>() {
        @Override
        public int compare(Object a, Object b) {
            int byFrame = frame(a).compareTo(frame(b));
            return byFrame != 0 ? byFrame : Key.compareSites(site(a), site(b));
        }
    };

    /** Visits the merged contexts below {@code roots}. */
    static void walk(List<?> roots, Visitor visitor) throws IOException {
        ArrayDeque<Pending> work = new ArrayDeque<Pending>();
        pushChildren(roots, 1, work);
        while (!work.isEmpty()) {
            Pending pending = work.pop();
            long calls = 0;
            long bytecodes = 0;
            for (Object source : pending.sources) {
                if (source instanceof IC) {
                    calls += ((IC) source).calls;
                    bytecodes += ((IC) source).bytecodes;
                } else {
                    calls += ((ProfileTree.Node) source).calls;
                    bytecodes += ((ProfileTree.Node) source).bytecodes;
                }
            }
            if (visitor.context(pending.key.frame, pending.key.site, calls, bytecodes, pending.depth, pending.sources)) {
                pushChildren(pending.sources, pending.depth + 1, work);
            }
        }
    }

    /** Pushes the merged children of {@code parents}, last first, so that they pop in frame-name order. */
    private static void pushChildren(List<?> parents, int depth, ArrayDeque<Pending> work) {
        if (parents.size() == 1) {
            // The usual case (finished work, nothing running): no merging, no map.
            Object[] children = children(parents.get(0));
            Arrays.sort(children, BY_KEY);
            for (int i = children.length - 1; i >= 0; i--) {
                work.push(new Pending(new Key(children[i]), Collections.singletonList(children[i]), depth));
            }
            return;
        }
        TreeMap<Key, List<Object>> merged = new TreeMap<Key, List<Object>>();
        for (Object parent : parents) {
            for (Object child : children(parent)) {
                Key key = new Key(child);
                List<Object> sources = merged.get(key);
                if (sources == null) {
                    sources = new ArrayList<Object>(parents.size());
                    merged.put(key, sources);
                }
                sources.add(child);
            }
        }
        for (Map.Entry<Key, List<Object>> entry : merged.descendingMap().entrySet()) {
            work.push(new Pending(entry.getKey(), entry.getValue(), depth));
        }
    }

    private static String frame(Object node) {
        return node instanceof IC ? ((IC) node).mid.frame() : ((ProfileTree.Node) node).frame;
    }

    private static int site(Object node) {
        return node instanceof IC ? ((IC) node).mid.site : ((ProfileTree.Node) node).site;
    }

    private static Object[] children(Object node) {
        return node instanceof IC ? ((IC) node).children() : ((ProfileTree.Node) node).children();
    }
}
