package org.jpprof.runtime;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/** Writes a merged tree in the profile format of docs/profile-format.md, version 1. */
final class ProfileWriter {
    private ProfileWriter() {}

    static final int FORMAT_VERSION = 1;

    /** Writes atomically: a temporary file in the same directory, then a rename. */
    static void write(ProfileTree tree, Map<String, String> meta, Path target) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, ".jp-", ".jpprof.tmp");
        try {
            try (Writer out = new BufferedWriter(
                    new OutputStreamWriter(Files.newOutputStream(temp), StandardCharsets.UTF_8), 1 << 16)) {
                write(tree, meta, out);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    static void write(ProfileTree tree, Map<String, String> meta, Writer out) throws IOException {
        out.write("jp-profile " + FORMAT_VERSION + "\n");
        for (Map.Entry<String, String> entry : meta.entrySet()) {
            out.write("meta " + entry.getKey() + " " + escape(entry.getValue()) + "\n");
        }
        // Every frame first, then the nodes in pre-order (a parent before its children).
        Map<String, Integer> frames = new HashMap<String, Integer>();
        for (ProfileTree.Node node : preOrder(tree)) {
            if (!frames.containsKey(node.frame)) {
                frames.put(node.frame, frames.size() + 1);
                out.write("frame " + frames.size() + " " + escape(node.frame) + "\n");
            }
        }
        Map<ProfileTree.Node, Integer> ids = new java.util.IdentityHashMap<ProfileTree.Node, Integer>();
        StringBuilder line = new StringBuilder();
        int nodeCount = 0;
        for (ProfileTree.Node node : preOrder(tree)) {
            int id = ++nodeCount;
            ids.put(node, id);
            Integer parent = node.parent == null ? null : ids.get(node.parent);
            line.setLength(0);
            line.append("node ").append(id).append(' ').append(parent == null ? 0 : parent).append(' ')
                    .append(frames.get(node.frame)).append(' ')
                    .append(Long.toUnsignedString(node.calls)).append(' ')
                    .append(Long.toUnsignedString(node.bytecodes)).append('\n');
            out.append(line);
        }
        out.write("end " + nodeCount + "\n");
    }

    /** Every context of the tree, each after its parent. Iterative: trees of recursions are deep. */
    private static java.util.List<ProfileTree.Node> preOrder(ProfileTree tree) {
        java.util.List<ProfileTree.Node> out = new java.util.ArrayList<ProfileTree.Node>();
        ArrayDeque<ProfileTree.Node> work = new ArrayDeque<ProfileTree.Node>(tree.root.children());
        while (!work.isEmpty()) {
            ProfileTree.Node node = work.pop();
            out.add(node);
            for (ProfileTree.Node child : node.children()) {
                work.push(child);
            }
        }
        return out;
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
