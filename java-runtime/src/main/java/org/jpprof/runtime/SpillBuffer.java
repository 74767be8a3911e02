package org.jpprof.runtime;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Text that a write produces early and puts out later (a profile's {@code value} records, which
 * the format puts after every node): in memory up to a limit, then in a temporary file. So writing
 * the profile of a large tree never holds a second copy of a large part of it.
 */
final class SpillBuffer implements Closeable {
    /** The most characters kept in memory before the text goes to a file. */
    static final int IN_MEMORY = 1 << 20;

    private final int inMemory;
    private final StringBuilder memory = new StringBuilder();
    /** The temporary file, once the text outgrew memory; null before. */
    private Path file;
    private Writer spilled;

    SpillBuffer() {
        this(IN_MEMORY);
    }

    /** A buffer that keeps at most {@code inMemory} characters in memory. */
    SpillBuffer(int inMemory) {
        this.inMemory = inMemory;
    }

    /** Adds {@code text} at the end. */
    void append(CharSequence text) throws IOException {
        if (spilled != null) {
            spilled.append(text);
            return;
        }
        memory.append(text);
        if (memory.length() > inMemory) {
            file = Files.createTempFile("jp-", ".jpprof.part");
            spilled = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16);
            spilled.append(memory);
            memory.setLength(0);
            memory.trimToSize();
        }
    }

    /** Writes the whole text to {@code out}. */
    void writeTo(Writer out) throws IOException {
        if (spilled == null) {
            out.append(memory);
            return;
        }
        spilled.flush();
        char[] chunk = new char[1 << 14];
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (int n; (n = in.read(chunk)) > 0;) {
                out.write(chunk, 0, n);
            }
        }
    }

    /** Deletes the temporary file, if there is one. */
    @Override
    public void close() throws IOException {
        if (spilled == null) return;
        try {
            spilled.close();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** The temporary file, or null while the text is in memory; for tests. */
    Path file() {
        return file;
    }
}
