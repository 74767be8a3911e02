package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeLibraryTest {
    @TempDir
    Path temp;

    @Test
    void sha256_should_be_the_standard_hex_digest() {
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                NativeLibrary.sha256(new byte[0]));
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                NativeLibrary.sha256("abc".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void materialize_should_write_a_missing_file_and_leave_no_temporary() throws IOException {
        byte[] bytes = "library".getBytes(StandardCharsets.US_ASCII);
        Path file = temp.resolve("lib.so");
        NativeLibrary.materialize(file, bytes, NativeLibrary.sha256(bytes));
        assertArrayEquals(bytes, Files.readAllBytes(file));
        assertEquals(1, count(temp));
    }

    @Test
    void materialize_should_replace_a_corrupt_file() throws IOException {
        byte[] bytes = "library".getBytes(StandardCharsets.US_ASCII);
        Path file = temp.resolve("lib.so");
        Files.write(file, "libr".getBytes(StandardCharsets.US_ASCII));
        NativeLibrary.materialize(file, bytes, NativeLibrary.sha256(bytes));
        assertArrayEquals(bytes, Files.readAllBytes(file));
    }

    @Test
    void materialize_should_keep_a_good_file_untouched() throws IOException {
        byte[] bytes = "library".getBytes(StandardCharsets.US_ASCII);
        Path file = temp.resolve("lib.so");
        Files.write(file, bytes);
        Object inode = Files.readAttributes(file, "unix:ino").get("ino");
        NativeLibrary.materialize(file, bytes, NativeLibrary.sha256(bytes));
        assertEquals(inode, Files.readAttributes(file, "unix:ino").get("ino"));
    }

    @Test
    void concurrent_extractions_should_all_see_the_whole_file() throws Exception {
        byte[] bytes = new byte[4 << 20];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + (i >> 12));
        }
        String hash = NativeLibrary.sha256(bytes);
        Path file = temp.resolve("lib.so");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> hashes = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                hashes.add(pool.submit(() -> {
                    NativeLibrary.materialize(file, bytes, hash);
                    return NativeLibrary.sha256(Files.readAllBytes(file));
                }));
            }
            for (Future<String> seen : hashes) {
                assertEquals(hash, seen.get());
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(1, count(temp), "no temporary file is left behind");
    }

    @Test
    void the_test_cache_directory_should_be_the_configured_one() {
        Path configured = NativeLibrary.cacheDirectory();
        assertTrue(configured.endsWith("jp-engine-cache"), configured.toString());
    }

    @Test
    void a_name_that_cannot_be_replaced_should_be_passed_over_for_the_next_copy()
            throws Exception {
        // A rename onto a non-empty directory fails, as one onto a DLL that a process has loaded
        // does on Windows.
        Platform platform = Platform.current();
        String hash = NativeLibrary.sha256(JarResources.read(platform.resource()));
        Path cache = temp.resolve("cache");
        Files.createDirectories(cache.resolve(platform.cachedName(hash, 0)).resolve("squatter"));
        String previous = System.setProperty(NativeLibrary.CACHE_DIR_PROPERTY, cache.toString());
        try (URLClassLoader loader = ClassLoaderTest.facadeLoader()) {
            Object engine = ClassLoaderTest.load(loader);
            assertEquals(cache.resolve(platform.cachedName(hash, 1)),
                    ClassLoaderTest.library(engine));
            assertEquals(Engine.load().version(), ClassLoaderTest.version(engine));
        } finally {
            System.setProperty(NativeLibrary.CACHE_DIR_PROPERTY, previous);
        }
    }

    @Test
    void loading_should_give_up_with_the_last_error_once_enough_names_failed()
            throws IOException {
        // Every extraction fails, so nothing is loaded: any bytes do.
        byte[] bytes = "library".getBytes(StandardCharsets.US_ASCII);
        Platform platform = Platform.current();
        String hash = NativeLibrary.sha256(bytes);
        Path cache = temp.resolve("cache");
        String previous = System.setProperty(NativeLibrary.CACHE_DIR_PROPERTY, cache.toString());
        try {
            for (int n = 0; n <= NativeLibrary.MAX_FAILED_NAMES; n++) {
                Files.createDirectories(cache.resolve(platform.cachedName(hash, n)).resolve("x"));
            }
            String message = assertThrows(EngineException.class,
                    () -> NativeLibrary.loadCopy(bytes, null)).getMessage();
            String last = platform.cachedName(hash, NativeLibrary.MAX_FAILED_NAMES - 1);
            assertTrue(message.startsWith("cannot extract JP's engine library into " + cache
                    + " (" + NativeLibrary.MAX_FAILED_NAMES + " names tried, the last " + last
                    + "): java.nio.file."), message);
            assertTrue(message.contains(cache.resolve(last).toString()), message);
        } finally {
            System.setProperty(NativeLibrary.CACHE_DIR_PROPERTY, previous);
        }
    }

    @Test
    void an_old_library_that_cannot_be_deleted_should_not_keep_the_others() throws IOException {
        Platform platform = Platform.current();
        FileTime old = FileTime.fromMillis(System.currentTimeMillis()
                - TimeUnit.DAYS.toMillis(NativeLibrary.UNUSED_DAYS + 1));
        List<Path> deletable = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Path file = temp.resolve(platform.cachedName(String.format("%04d", i), 0));
            Files.write(file, new byte[] {1});
            Files.setLastModifiedTime(file, old);
            deletable.add(file);
        }
        // Like a library that a daemon still has loaded on Windows.
        Path loaded = temp.resolve(platform.cachedName("0010loaded", 0));
        Files.createDirectories(loaded.resolve("inside"));
        Files.setLastModifiedTime(loaded, old);
        Path current = temp.resolve(platform.cachedName("abcd", 2));
        Files.write(current, new byte[] {1});
        Files.setLastModifiedTime(current, old);

        NativeLibrary.forgetOldLibraries(platform, temp, "abcd");

        for (Path file : deletable) {
            assertTrue(Files.notExists(file), file + " is deleted");
        }
        assertTrue(Files.isDirectory(loaded));
        assertTrue(Files.exists(current), "the library in use is kept");
    }

    @Test
    void a_cache_directory_should_be_refused_unless_its_owner_is_this_user() throws IOException {
        Path directory = temp.resolve("engine");
        assertEquals(directory, NativeLibrary.privateDirectory(directory), "one's own is used");
        try {
            Files.setOwner(directory, temp.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName("nobody"));
        } catch (IOException e) {
            Assumptions.assumeTrue(false, "only root can give a directory away: " + e);
        }
        IOException refused =
                assertThrows(IOException.class, () -> NativeLibrary.privateDirectory(directory));
        assertEquals("owned by nobody", refused.getMessage());
        // As the account user.name names, it is this user's (an administrator's on Windows).
        String previous = System.setProperty("user.name", "nobody");
        try {
            assertEquals(directory, NativeLibrary.privateDirectory(directory));
        } finally {
            System.setProperty("user.name", previous);
        }
    }

    private static long count(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.collect(Collectors.toList()).size();
        }
    }
}
