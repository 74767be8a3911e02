package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlatformTest {
    private static final BooleanSupplier GLIBC = () -> false;
    private static final BooleanSupplier MUSL = () -> true;
    /** For platforms where the C library must not matter. */
    private static final BooleanSupplier NOT_ASKED = () -> {
        throw new AssertionError("the C library is asked on Linux only");
    };

    @ParameterizedTest
    @CsvSource({
        "Linux, amd64, false, linux-x86_64",
        "Linux, aarch64, false, linux-aarch64",
        "Linux, amd64, true, linux-musl-x86_64",
        "Linux, aarch64, true, linux-musl-aarch64",
    })
    void linux_should_be_named_by_its_arch_and_c_library(
            String osName, String osArch, boolean musl, String id) {
        assertEquals(id, Platform.detect(osName, osArch, musl ? MUSL : GLIBC).id());
    }

    @ParameterizedTest
    @CsvSource({
        "Mac OS X, x86_64, macos-x86_64",
        "Mac OS X, aarch64, macos-aarch64",
        "Mac OS X, arm64, macos-aarch64",
        "Darwin, arm64, macos-aarch64",
        "Windows 11, amd64, windows-x86_64",
        "Windows Server 2022, amd64, windows-x86_64",
        "Windows 10, x86_64, windows-x86_64",
        "Windows 10, EM64T, windows-x86_64",
        "FreeBSD, x86-64, freebsd-x86_64",
        "SunOS, sparcv9, sunos-sparcv9",
    })
    void other_systems_should_be_named_without_asking_for_the_c_library(
            String osName, String osArch, String id) {
        assertEquals(id, Platform.detect(osName, osArch, NOT_ASKED).id());
    }

    /** The build of these tests puts its host's library into the classes, and no other. */
    @ParameterizedTest
    @CsvSource({
        "Windows 11, aarch64, windows-aarch64",
        "FreeBSD, amd64, freebsd-x86_64",
        "Linux, ppc64le, linux-ppc64le",
    })
    void a_platform_without_a_library_should_get_one_message_that_shows_the_way_out(
            String osName, String osArch, String id) {
        Platform platform = Platform.detect(osName, osArch, GLIBC);
        String message = assertThrows(EngineException.class,
                () -> NativeLibrary.readResource(platform)).getMessage();
        assertTrue(message.startsWith("JP's engine has no library for " + id
                + ", the platform of os.name \"" + osName + "\" and os.arch \"" + osArch + "\": "
                + JarResources.jar() + " holds the library for " + Platform.current().id()
                + " only; "), message);
        assertTrue(message.endsWith("; build engine/jni on this platform (cargo build --release -p"
                + " jp-jni) and name the library with -Djp.engine.library=FILE"), message);
    }

    @Test
    void a_musl_platform_should_say_why_the_glibc_library_is_not_used() {
        assertEquals("linux-musl-x86_64 (musl libc), the platform of os.name \"Linux\" and os.arch"
                + " \"amd64\"", Platform.detect("Linux", "amd64", MUSL).describe());
    }

    @Test
    void every_known_platform_should_have_its_resource_and_file_names() {
        List<String> rows = new ArrayList<>();
        for (Platform platform : Platform.KNOWN) {
            rows.add(platform.id() + " " + platform.resource() + " " + platform.libraryFileName()
                    + " " + platform.cachedName("ab12", 0) + " " + platform.cachedName("ab12", 3)
                    + " " + platform.cachedGlob());
        }
        assertEquals(Arrays.asList(
                "linux-x86_64 /native/linux-x86_64/libjp_jni.so libjp_jni.so libjp_jni-ab12.so"
                        + " libjp_jni-ab12-3.so libjp_jni-*.so",
                "linux-aarch64 /native/linux-aarch64/libjp_jni.so libjp_jni.so libjp_jni-ab12.so"
                        + " libjp_jni-ab12-3.so libjp_jni-*.so",
                "linux-musl-x86_64 /native/linux-musl-x86_64/libjp_jni.so libjp_jni.so"
                        + " libjp_jni-ab12.so libjp_jni-ab12-3.so libjp_jni-*.so",
                "linux-musl-aarch64 /native/linux-musl-aarch64/libjp_jni.so libjp_jni.so"
                        + " libjp_jni-ab12.so libjp_jni-ab12-3.so libjp_jni-*.so",
                "macos-x86_64 /native/macos-x86_64/libjp_jni.dylib libjp_jni.dylib"
                        + " libjp_jni-ab12.dylib libjp_jni-ab12-3.dylib libjp_jni-*.dylib",
                "macos-aarch64 /native/macos-aarch64/libjp_jni.dylib libjp_jni.dylib"
                        + " libjp_jni-ab12.dylib libjp_jni-ab12-3.dylib libjp_jni-*.dylib",
                "windows-x86_64 /native/windows-x86_64/jp_jni.dll jp_jni.dll jp_jni-ab12.dll"
                        + " jp_jni-ab12-3.dll jp_jni-*.dll"),
                rows);
    }

    @Test
    void the_copies_of_a_library_should_share_the_cached_prefix_of_its_hash() {
        Platform windows = Platform.detect("Windows 11", "amd64", NOT_ASKED);
        assertEquals("jp_jni-ab12", windows.cachedPrefix("ab12"));
        assertTrue(windows.cachedName("ab12", 7).startsWith(windows.cachedPrefix("ab12")));
    }

    @Test
    void the_user_cache_directory_should_follow_each_systems_convention() {
        Map<String, String> env = new HashMap<>();
        env.put("XDG_CACHE_HOME", "/x/cache");
        env.put("LOCALAPPDATA", "/w/AppData/Local");
        Platform linux = Platform.detect("Linux", "amd64", GLIBC);
        Platform mac = Platform.detect("Mac OS X", "aarch64", NOT_ASKED);
        Platform windows = Platform.detect("Windows 11", "amd64", NOT_ASKED);
        assertEquals(Paths.get("/x/cache"), linux.userCacheDirectory(env::get, "/home/u"));
        assertEquals(Paths.get("/Users/u/Library/Caches"),
                mac.userCacheDirectory(env::get, "/Users/u"));
        assertEquals(Paths.get("/w/AppData/Local"), windows.userCacheDirectory(env::get, "/w"));

        env.put("XDG_CACHE_HOME", "relative");
        env.remove("LOCALAPPDATA");
        assertEquals(Paths.get("/home/u/.cache"), linux.userCacheDirectory(env::get, "/home/u"));
        assertNull(windows.userCacheDirectory(env::get, "/w"), "the temporary directory then");
        assertNull(linux.userCacheDirectory(env::get, "?"));
        assertNull(mac.userCacheDirectory(env::get, null));
    }

    @Test
    void musl_should_be_recognised_by_the_loader_the_jvm_mapped() {
        assertFalse(Platform.mapsMusl(Stream.of(
                mapped("/usr/lib/jvm/java-17/bin/java"),
                mapped("/usr/lib/x86_64-linux-gnu/libc.so.6"),
                mapped("/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"),
                mapped("/opt/ld-musl-tools/lib/libz.so.1"),
                "7f1c2a600000-7f1c2a601000 rw-p 00000000 00:00 0 ",
                "7ffd1c3a1000-7ffd1c3c2000 rw-p 00000000 00:00 0          [stack]")),
                "glibc, with a directory named like musl's loader");
        assertTrue(Platform.mapsMusl(Stream.of(
                mapped("/usr/lib/jvm/java-17-openjdk/bin/java"),
                mapped("/usr/lib/jvm/java-17-openjdk/lib/server/libjvm.so"),
                mapped("/lib/ld-musl-x86_64.so.1"),
                "7ffc9e1b8000-7ffc9e1d9000 rw-p 00000000 00:00 0          [stack]")),
                "Alpine");
        assertTrue(Platform.mapsMusl(Stream.of(mapped("/usr/lib/libc.musl-aarch64.so.1"))));
        assertTrue(Platform.mapsMusl(Stream.of(
                mapped("/tmp/maps-musl"),
                mapped("/usr/lib/x86_64-linux-musl/libc.so"))),
                "a program linked with Debian's musl-gcc, whose ld-musl-x86_64.so.1 is a link");
        assertFalse(Platform.mapsMusl(Stream.empty()), "an unreadable map means glibc");
    }

    /** A line of {@code /proc/self/maps} that maps {@code file}. */
    private static String mapped(String file) {
        return "7f1c2a000000-7f1c2a022000 r--p 00000000 08:01 5678                       " + file;
    }
}
