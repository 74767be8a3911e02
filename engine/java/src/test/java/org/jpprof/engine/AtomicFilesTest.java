package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
    @Test
    void a_file_should_be_written_over_in_a_new_directory_leaving_no_temporary_file(@TempDir Path dir)
            throws IOException {
        Path file = dir.resolve("new/dir/ide.txt");
        AtomicFiles.write(file, new byte[] {1, 2});
        AtomicFiles.write(file, new byte[] {3});
        assertArrayEquals(new byte[] {3}, Files.readAllBytes(file));
        try (Stream<Path> files = Files.list(file.getParent())) {
            assertEquals(1, files.count());
        }
    }

    @Test
    void a_file_should_be_readable_by_others_as_the_umask_allows(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("jp-runtime.jar");
        AtomicFiles.write(file, new byte[] {1});
        // Not the owner-only mode of a temporary file: under any usual umask, others may read it.
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        assertTrue(permissions.contains(PosixFilePermission.OTHERS_READ), permissions.toString());
        assertTrue(permissions.contains(PosixFilePermission.GROUP_READ), permissions.toString());
    }

    @Test
    void a_file_whose_directory_cannot_be_made_should_fail(@TempDir Path dir) throws IOException {
        Path taken = Files.write(dir.resolve("taken"), new byte[0]);
        assertThrows(IOException.class, () -> AtomicFiles.write(taken.resolve("ide.txt"), new byte[] {1}));
    }
}
