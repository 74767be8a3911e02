package org.jpprof.engine;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Files that appear whole or not at all, for everything the engine's Java side and the build
 * plugins write themselves: the engine's library, the runtime jar, IDE settings.
 */
public final class AtomicFiles {
    private AtomicFiles() {}

    /**
     * Writes {@code bytes} to {@code file} through a temporary file in the same directory that is
     * renamed into place, so that a reader (a test JVM, an IDE, a concurrent build) sees the old
     * file or the whole new one. The file gets the permissions of any new file (as the umask
     * allows), not the owner-only ones of {@link Files#createTempFile}.
     *
     * @param file the file; its directory is created when missing
     * @param bytes its content
     * @throws IOException if the directory cannot be created or the file cannot be written
     */
    public static void write(Path file, byte[] bytes) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = temporarySibling(file);
        try {
            Files.write(temp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * A name for a temporary file beside {@code file}, for {@link StandardOpenOption#CREATE_NEW}
     * (which refuses a name that exists). It needs to be unique, not unpredictable: {@code
     * UUID.randomUUID()} and {@link Files#createTempFile} would seed a {@code SecureRandom}, which
     * gathers entropy from the system (network interfaces among it on Windows) on a JVM's first
     * use, only to name a file.
     */
    static Path temporarySibling(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        return dir.resolve("." + file.getFileName() + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
    }
}
