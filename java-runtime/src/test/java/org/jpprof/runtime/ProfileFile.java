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
import java.util.Objects;
import java.util.Set;

/**
 * A profile read back line by line, checking every rule of docs/profile-format.md (versions 1 to
 * 3, and 5's call sites) on the way, including the writer's own promises: the lowest version that holds the profile,
 * frames and nodes numbered from 1 in file order, each frame written just before its first node,
 * thread groups in name order.
 */
final class ProfileFile {
    /** One {@code node} record, with its frame's name and its thread group (null for none). */
    static final class Node {
        final int id;
        final int parent;
        final String frame;
        final String group;
        final long calls;
        final long bytecodes;

        Node(int id, int parent, String frame, String group, long calls, long bytecodes) {
            this.id = id;
            this.parent = parent;
            this.frame = frame;
            this.group = group;
            this.calls = calls;
            this.bytecodes = bytecodes;
        }
    }

    /** A calling context merged over thread groups: the nodes of one path of frames, added up. */
    static final class Context {
        final List<Node> nodes;
        final long calls;
        final long bytecodes;

        Context(List<Node> nodes) {
            this.nodes = nodes;
            this.calls = nodes.stream().mapToLong(node -> node.calls).sum();
            this.bytecodes = nodes.stream().mapToLong(node -> node.bytecodes).sum();
        }
    }

    int version;
    final Map<String, String> meta = new LinkedHashMap<>();
    final Map<Integer, String> frames = new HashMap<>();
    /** The {@code thread} records: each group's thread count, in file order. */
    final Map<String, Long> groups = new LinkedHashMap<>();
    final List<Node> nodes = new ArrayList<>();
    /** The {@code line} records, as {@code frame-name line} to bytecodes, in file order. */
    final Map<String, Long> lines = new LinkedHashMap<>();

    static ProfileFile read(Path path) throws IOException {
        String text = new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
        return parse(text);
    }

    static ProfileFile parse(String text) {
        assertTrue(text.endsWith("\n"), "the last line ends with \\n");
        assertFalse(text.contains("\r"), "lines end with \\n only");
        String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
        ProfileFile profile = new ProfileFile();
        assertTrue(lines[0].matches("jp-profile [1235]"), lines[0]);
        profile.version = Integer.parseInt(lines[0].substring("jp-profile ".length()));
        Map<Integer, Node> byId = new HashMap<>();
        Set<String> contexts = new HashSet<>();
        Set<String> frameLines = new HashSet<>();
        String group = null;
        int framesUsed = 0;
        int lastLineFrame = 0;
        int lastLine = 0;
        boolean ended = false;
        boolean sites = false;
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
                    assertTrue(profile.groups.isEmpty() && profile.lines.isEmpty(), "frames before threads and lines: " + where);
                    int id = Integer.parseInt(fields[1]);
                    assertEquals(profile.frames.size() + 1, id, "frames numbered from 1: " + where);
                    String name = unescape(line.substring(("frame " + fields[1] + " ").length()), where);
                    assertTrue(name.matches("[^(]+\\.[^.(]+\\(.*\\).+") || name.matches("\\[test\\] .+"),
                            "class.method(descriptor) or [test] <test id>: " + where);
                    profile.frames.put(id, name);
                    break;
                }
                case "thread": {
                    assertTrue(profile.version >= 3, "thread records from version 3 on: " + where);
                    assertTrue(fields.length >= 3, where);
                    assertTrue(profile.lines.isEmpty(), "threads before lines: " + where);
                    long threads = unsigned(fields[1], where);
                    String name = unescape(line.substring(("thread " + fields[1] + " ").length()), where);
                    assertTrue(group == null || group.compareTo(name) < 0, "groups in name order, once each: " + where);
                    profile.groups.put(name, threads);
                    group = name;
                    break;
                }
                case "node": {
                    assertTrue(profile.lines.isEmpty(), "nodes before lines: " + where);
                    assertTrue(fields.length == 6 || profile.version >= 5 && fields.length == 7, where);
                    String site = fields.length == 7 ? fields[6] : "";
                    assertTrue(site.isEmpty() || site.matches("(0|[1-9][0-9]*)(:[1-9][0-9]*)?"), "bci[:line]: " + where);
                    sites |= !site.isEmpty();
                    int id = Integer.parseInt(fields[1]);
                    assertEquals(profile.nodes.size() + 1, id, "nodes numbered from 1: " + where);
                    int parent = Integer.parseInt(fields[2]);
                    assertTrue(parent >= 0 && parent < id, "parent is 0 or an earlier node: " + where);
                    assertTrue(parent == 0 || Objects.equals(byId.get(parent).group, group), "parent in the same group: " + where);
                    int frameId = Integer.parseInt(fields[3]);
                    String frame = profile.frames.get(frameId);
                    assertNotNull(frame, "an earlier frame: " + where);
                    assertTrue(frameId <= framesUsed + 1, "frames numbered in order of first use: " + where);
                    framesUsed = Math.max(framesUsed, frameId);
                    assertTrue(parent == 0 || !frame.startsWith("[test] "), "test contexts are top-level: " + where);
                    assertTrue(contexts.add(group + " " + parent + " " + frame + " " + site),
                            "one node per group, parent, frame and site: " + where);
                    Node node = new Node(id, parent, frame, group, unsigned(fields[4], where), unsigned(fields[5], where));
                    profile.nodes.add(node);
                    byId.put(id, node);
                    break;
                }
                case "line": {
                    assertTrue(profile.version >= 2, "line records in versions 2 and 3 only: " + where);
                    assertEquals(4, fields.length, where);
                    int frameId = Integer.parseInt(fields[1]);
                    String frame = profile.frames.get(frameId);
                    assertNotNull(frame, "an earlier frame: " + where);
                    int number = Integer.parseInt(fields[2]);
                    assertTrue(number > 0, "a positive line: " + where);
                    assertTrue(frameId > lastLineFrame || frameId == lastLineFrame && number > lastLine,
                            "by frame, then line, once each: " + where);
                    lastLineFrame = frameId;
                    lastLine = number;
                    assertTrue(frameLines.add(frame + " " + number), where);
                    profile.lines.put(frame + " " + number, unsigned(fields[3], where));
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
        assertEquals(profile.frames.size(), framesUsed, "every frame is used");
        int lowest = sites ? 5 : !profile.groups.isEmpty() ? 3 : !profile.lines.isEmpty() ? 2 : 1;
        assertEquals(lowest, profile.version, "the lowest version that holds the profile");
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

    /** The node of thread group {@code group} (null: of no group) reached from its top level through these frames, or null. */
    Node findIn(String group, String... path) {
        int parent = 0;
        Node found = null;
        for (String frame : path) {
            found = null;
            for (Node node : nodes) {
                if (Objects.equals(node.group, group) && node.parent == parent && node.frame.equals(frame)) {
                    found = node;
                    break;
                }
            }
            if (found == null) return null;
            parent = found.id;
        }
        return found;
    }

    /** As {@link #findIn}, failing when there is no such node. */
    Node getIn(String group, String... path) {
        Node node = findIn(group, path);
        assertNotNull(node, () -> "no context " + String.join(" > ", path) + " in group " + group);
        return node;
    }

    /** The context of these frames merged over every group (and nodes of none), or null when no group has it. */
    Context find(String... path) {
        List<Node> found = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Node node : nodes) {
            if (seen.add(node.group)) {
                Node in = findIn(node.group, path);
                if (in != null) found.add(in);
            }
        }
        return found.isEmpty() ? null : new Context(found);
    }

    /** As {@link #find}, failing when no group has the context. */
    Context get(String... path) {
        Context context = find(path);
        assertNotNull(context, () -> "no context " + String.join(" > ", path));
        return context;
    }

    /** The paths of frames (joined by {@code " > "}) of the nodes of {@code group}, in file order. */
    List<String> paths(String group) {
        Map<Integer, String> byId = new HashMap<>();
        List<String> out = new ArrayList<>();
        for (Node node : nodes) {
            String path = node.parent == 0 ? node.frame : byId.get(node.parent) + " > " + node.frame;
            byId.put(node.id, path);
            if (Objects.equals(node.group, group)) out.add(path);
        }
        return out;
    }
}
