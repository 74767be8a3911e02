package org.jpprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A profile read back line by line, checking every rule of docs/profile-format.md (version 1) on
 * the way, including the writer's own promise to number frames and nodes from 1 in file order.
 */
final class ProfileFile {
    /** One {@code node} record, with its frame's name. */
    static final class Node {
        final int id;
        final int parent;
        final String frame;
        final long calls;
        final long bytecodes;

        Node(int id, int parent, String frame, long calls, long bytecodes) {
            this.id = id;
            this.parent = parent;
            this.frame = frame;
            this.calls = calls;
            this.bytecodes = bytecodes;
        }
    }

    final Map<String, String> meta = new LinkedHashMap<>();
    final Map<Integer, String> frames = new HashMap<>();
    final List<Node> nodes = new ArrayList<>();

    static ProfileFile read(Path path) throws IOException {
        String text = new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
        return parse(text);
    }

    static ProfileFile parse(String text) {
        assertTrue(text.endsWith("\n"), "the last line ends with \\n");
        assertFalse(text.contains("\r"), "lines end with \\n only");
        String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
        ProfileFile profile = new ProfileFile();
        assertEquals("jp-profile 1", lines[0]);
        Set<String> contexts = new HashSet<>();
        boolean ended = false;
        for (int n = 1; n < lines.length; n++) {
            String line = lines[n];
            String where = "line " + (n + 1) + ": " + line;
            assertFalse(ended, "nothing after end: " + where);
            String[] fields = line.split(" ", -1);
            switch (fields[0]) {
                case "meta":
                    assertTrue(profile.frames.isEmpty(), "meta before the first frame: " + where);
                    assertTrue(fields.length >= 3 && !fields[1].isEmpty(), where);
                    profile.meta.put(fields[1], line.substring(("meta " + fields[1] + " ").length()));
                    break;
                case "frame": {
                    int id = Integer.parseInt(fields[1]);
                    assertEquals(profile.frames.size() + 1, id, "frames numbered from 1: " + where);
                    String name = unescape(line.substring(("frame " + fields[1] + " ").length()), where);
                    assertTrue(name.matches("[^(]+\\.[^.(]+\\(.*\\).+") || name.matches("\\[test\\] .+"),
                            "class.method(descriptor) or [test] <test id>: " + where);
                    profile.frames.put(id, name);
                    break;
                }
                case "node": {
                    assertEquals(6, fields.length, where);
                    int id = Integer.parseInt(fields[1]);
                    assertEquals(profile.nodes.size() + 1, id, "nodes numbered from 1: " + where);
                    int parent = Integer.parseInt(fields[2]);
                    assertTrue(parent >= 0 && parent < id, "parent is 0 or an earlier node: " + where);
                    String frame = profile.frames.get(Integer.parseInt(fields[3]));
                    assertNotNull(frame, "an earlier frame: " + where);
                    assertTrue(parent == 0 || !frame.startsWith("[test] "), "test contexts are top-level: " + where);
                    assertTrue(contexts.add(parent + " " + frame), "one node per parent and frame: " + where);
                    profile.nodes.add(new Node(id, parent, frame, unsigned(fields[4], where), unsigned(fields[5], where)));
                    break;
                }
                case "end":
                    assertEquals("end " + profile.nodes.size(), line);
                    ended = true;
                    break;
                default:
                    fail("unknown record: " + where);
            }
        }
        assertTrue(ended, "the file ends with an end record");
        return profile;
    }

    private static long unsigned(String field, String where) {
        assertTrue(field.matches("0|[1-9][0-9]*"), "an unsigned decimal: " + where);
        BigInteger value = new BigInteger(field);
        assertTrue(value.bitLength() <= 64, "a 64-bit value: " + where);
        return value.longValue();
    }

    private static String unescape(String text, String where) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                char next = ++i < text.length() ? text.charAt(i) : 0;
                if (next == '\\') out.append('\\');
                else if (next == 'n') out.append('\n');
                else fail("bad escape: " + where);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** The node reached from the thread roots through these frames, or null. */
    Node find(String... path) {
        int parent = 0;
        Node found = null;
        for (String frame : path) {
            found = null;
            for (Node node : nodes) {
                if (node.parent == parent && node.frame.equals(frame)) {
                    found = node;
                    break;
                }
            }
            if (found == null) return null;
            parent = found.id;
        }
        return found;
    }

    /** As {@link #find}, failing when there is no such node. */
    Node get(String... path) {
        Node node = find(path);
        assertNotNull(node, () -> "no context " + String.join(" > ", path));
        return node;
    }
}
