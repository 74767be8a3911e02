package org.jpprof.runtime;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a merged tree in the profile format of docs/profile-format.md: version 3 when it has
 * thread groups, else version 2 when it has per-line counts, else version 1.
 */
final class ProfileWriter {
    private ProfileWriter() {}

    static final int FORMAT_VERSION = 1;
    /** The version of profiles with {@code line} records. */
    static final int LINES_FORMAT_VERSION = 2;
    /** The version of profiles with {@code thread} records. */
    static final int GROUPS_FORMAT_VERSION = 3;

    /** Siblings in frame-name order, so that the same profile always reads the same. */
    private static final Comparator<ProfileTree.Node> BY_FRAME = new Comparator<ProfileTree.Node>() {
        @Override
        public int compare(ProfileTree.Node a, ProfileTree.Node b) {
            return a.frame.compareTo(b.frame);
        }
    };

    /**
     * Writes {@code target}. A regular file (or a new one) is written atomically: a temporary file
     * in the same directory, created with the permissions the umask gives, then a rename. Anything
     * else that exists (a device such as /dev/null, a FIFO) is written into as it is: a rename
     * would replace it.
     */
    static void write(ProfileTree tree, Map<String, String> meta, Path target) throws IOException {
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.WRITE)) {
                write(tree, meta, out);
            }
            return;
        }
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = createTemporary(dir);
        try {
            try (OutputStream out = Files.newOutputStream(temp)) {
                write(tree, meta, out);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * A new empty file in {@code dir}, with the default permissions: {@code Files.createTempFile}
     * would make it readable by its owner only.
     */
    private static Path createTemporary(Path dir) throws IOException {
        for (int attempt = 0;; attempt++) {
            Path temp = dir.resolve(".jp-" + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".jpprof.tmp");
            try {
                return Files.createFile(temp);
            } catch (FileAlreadyExistsException e) {
                if (attempt == 100) throw e;
            }
        }
    }

    private static void write(ProfileTree tree, Map<String, String> meta, OutputStream stream) throws IOException {
        Writer out = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), 1 << 16);
        write(tree, meta, out);
        out.flush();
    }

    static void write(ProfileTree tree, Map<String, String> meta, Writer out) throws IOException {
        out.write("jp-profile " + version(tree) + "\n");
        for (Map.Entry<String, String> entry : meta.entrySet()) {
            out.write("meta " + entry.getKey() + " " + escape(entry.getValue()) + "\n");
        }
        // Every frame first (the format wants no meta after them, and no frame after a thread
        // record), then the nodes of no group and those of each group, in pre-order: a parent
        // before its children.
        List<ProfileTree.Node> ungrouped = preOrder(tree.root);
        Map<String, List<ProfileTree.Node>> grouped = new LinkedHashMap<String, List<ProfileTree.Node>>();
        for (Map.Entry<String, ProfileTree.Group> group : tree.groups.entrySet()) {
            grouped.put(group.getKey(), preOrder(group.getValue().root));
        }
        Map<String, Integer> frames = new HashMap<String, Integer>();
        writeFrames(ungrouped, frames, out);
        for (List<ProfileTree.Node> nodes : grouped.values()) {
            writeFrames(nodes, frames, out);
        }
        Map<ProfileTree.Node, Integer> ids = new IdentityHashMap<ProfileTree.Node, Integer>();
        writeNodes(ungrouped, frames, ids, out);
        for (Map.Entry<String, List<ProfileTree.Node>> group : grouped.entrySet()) {
            long threads = tree.groups.get(group.getKey()).threads;
            out.write("thread " + Long.toUnsignedString(threads) + " " + escape(group.getKey()) + "\n");
            writeNodes(group.getValue(), frames, ids, out);
        }
        writeLines(tree, frames, out);
        out.write("end " + ids.size() + "\n");
    }

    /** The lowest version that holds what {@code tree} has. */
    private static int version(ProfileTree tree) {
        if (!tree.groups.isEmpty()) return GROUPS_FORMAT_VERSION;
        return tree.lines.isEmpty() ? FORMAT_VERSION : LINES_FORMAT_VERSION;
    }

    /** The {@code frame} records of the frames that {@code nodes} use first, numbered on from {@code frames}. */
    private static void writeFrames(List<ProfileTree.Node> nodes, Map<String, Integer> frames, Writer out)
            throws IOException {
        for (ProfileTree.Node node : nodes) {
            if (!frames.containsKey(node.frame)) {
                int id = frames.size() + 1;
                frames.put(node.frame, id);
                out.write("frame " + id + " " + escape(node.frame) + "\n");
            }
        }
    }

    /** The {@code node} records of {@code nodes}, numbered on from {@code ids}. */
    private static void writeNodes(List<ProfileTree.Node> nodes, Map<String, Integer> frames,
            Map<ProfileTree.Node, Integer> ids, Writer out) throws IOException {
        StringBuilder line = new StringBuilder();
        for (ProfileTree.Node node : nodes) {
            int id = ids.size() + 1;
            ids.put(node, id);
            line.setLength(0);
            line.append("node ").append(id).append(' ')
                    .append(node.parent == null ? 0 : ids.get(node.parent).intValue()).append(' ')
                    .append(frames.get(node.frame).intValue()).append(' ')
                    .append(Long.toUnsignedString(node.calls)).append(' ')
                    .append(Long.toUnsignedString(node.bytecodes)).append('\n');
            out.append(line);
        }
    }

    /** The {@code line} records, by frame id, then line; lines with no count are left out. */
    private static void writeLines(ProfileTree tree, Map<String, Integer> frames, Writer out) throws IOException {
        List<String> byId = new ArrayList<String>(tree.lines.keySet());
        Collections.sort(byId, new Comparator<String>() {
            @Override
            public int compare(String a, String b) {
                return frames.get(a).compareTo(frames.get(b));
            }
        });
        StringBuilder line = new StringBuilder();
        for (String frame : byId) {
            LineCounts counts = tree.lines.get(frame);
            for (int i = 0; i < counts.counts.length; i++) {
                if (counts.counts[i] == 0) continue;
                line.setLength(0);
                line.append("line ").append(frames.get(frame).intValue()).append(' ')
                        .append(counts.first + i).append(' ')
                        .append(Long.toUnsignedString(counts.counts[i])).append('\n');
                out.append(line);
            }
        }
    }

    /** Every context below {@code root}, each after its parent. Iterative: trees of recursions are deep. */
    private static List<ProfileTree.Node> preOrder(ProfileTree.Node root) {
        List<ProfileTree.Node> out = new ArrayList<ProfileTree.Node>();
        ArrayDeque<ProfileTree.Node> work = new ArrayDeque<ProfileTree.Node>();
        pushChildren(root, work);
        while (!work.isEmpty()) {
            ProfileTree.Node node = work.pop();
            out.add(node);
            pushChildren(node, work);
        }
        return out;
    }

    /** Pushed last first, so that they pop in frame-name order. */
    private static void pushChildren(ProfileTree.Node node, ArrayDeque<ProfileTree.Node> work) {
        List<ProfileTree.Node> children = node.children();
        Collections.sort(children, Collections.reverseOrder(BY_FRAME));
        for (ProfileTree.Node child : children) {
            work.push(child);
        }
    }

    /** {@code \} as {@code \\} and a line break as {@code \n}: one record per line. */
    static String escape(String text) {
        if (text.indexOf('\\') < 0 && text.indexOf('\n') < 0) return text;
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') out.append("\\\\");
            else if (c == '\n') out.append("\\n");
            else out.append(c);
        }
        return out.toString();
    }
}
