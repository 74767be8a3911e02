package org.jpprof.engine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The platform this JVM runs on, as the jar names its libraries: {@code <os>[-musl]-<arch>}, for
 * example {@code linux-musl-x86_64}. It knows where the jar keeps the library for it and what the
 * library's files are called there and in the cache directory. See docs/engine-jni.md.
 */
final class Platform {
    private static final String LINUX = "linux";
    private static final String MACOS = "macos";
    private static final String WINDOWS = "windows";

    /** The platforms that JP builds its library for, in the order messages list them. */
    static final List<Platform> KNOWN = Collections.unmodifiableList(Arrays.asList(
            known(LINUX, "x86_64", false),
            known(LINUX, "aarch64", false),
            known(LINUX, "x86_64", true),
            known(LINUX, "aarch64", true),
            known(MACOS, "x86_64", false),
            known(MACOS, "aarch64", false),
            known(WINDOWS, "x86_64", false)));

    /** The process's memory map: it names every file the dynamic loader mapped. */
    private static final Path MAPS = Paths.get("/proc/self/maps");

    private final String os;
    private final String arch;
    private final boolean musl;
    private final String osName;
    private final String osArch;

    private Platform(String os, String arch, boolean musl, String osName, String osArch) {
        this.os = os;
        this.arch = arch;
        this.musl = musl;
        this.osName = osName;
        this.osArch = osArch;
    }

    private static Platform known(String os, String arch, boolean musl) {
        return new Platform(os, arch, musl, os, arch);
    }

    /**
     * The platform of a JVM.
     *
     * @param osName its {@code os.name}
     * @param osArch its {@code os.arch}
     * @param musl whether its C library is musl; asked on Linux only
     * @return the platform, supported or not
     */
    static Platform detect(String osName, String osArch, BooleanSupplier musl) {
        String name = osName.toLowerCase(Locale.ROOT);
        String os;
        if (name.startsWith("linux")) {
            os = LINUX;
        } else if (name.startsWith("mac") || name.startsWith("darwin")) {
            os = MACOS;
        } else if (name.startsWith("windows")) {
            os = WINDOWS;
        } else {
            os = name.replaceAll("[^a-z0-9]", "");
        }
        String arch = osArch.toLowerCase(Locale.ROOT);
        switch (arch) {
            case "amd64":
            case "x86_64":
            case "x86-64":
            case "em64t":
                arch = "x86_64";
                break;
            case "arm64":
                arch = "aarch64";
                break;
            default:
                break;
        }
        return new Platform(os, arch, os.equals(LINUX) && musl.getAsBoolean(), osName, osArch);
    }

    /** @return the platform of this JVM */
    static Platform current() {
        return detect(System.getProperty("os.name", ""), System.getProperty("os.arch", ""),
                Platform::muslMapped);
    }

    /**
     * Whether this process runs on musl. The loader that the JVM was started with is in its
     * memory map; a musl loader merely installed on the system (Debian packages one) is not.
     *
     * @return {@code false} also when the map cannot be read
     */
    private static boolean muslMapped() {
        try (BufferedReader maps = Files.newBufferedReader(MAPS, StandardCharsets.ISO_8859_1);
                Stream<String> lines = maps.lines()) {
            return mapsMusl(lines);
        } catch (IOException | UncheckedIOException | SecurityException e) {
            return false;
        }
    }

    /**
     * Whether lines of {@code /proc/<pid>/maps} map musl's C library. The map shows a file by its
     * real path, after symbolic links: Alpine's is {@code ld-musl-<arch>.so.1} ({@code
     * libc.musl-<arch>.so.1} links to it); where {@code ld-musl-<arch>.so.1} is the link, as on
     * Debian, the file is musl's {@code libc.so}. (glibc's {@code libc.so} is a linker script,
     * never mapped; its library is {@code libc.so.6}.)
     *
     * @param lines the map's lines
     * @return whether one of them maps such a file
     */
    static boolean mapsMusl(Stream<String> lines) {
        return lines.anyMatch(line -> {
            int slash = line.lastIndexOf('/');
            String file = line.substring(slash + 1);
            return slash >= 0 && (file.startsWith("ld-musl-") || file.startsWith("libc.musl-")
                    || file.equals("libc.so"));
        });
    }

    /** @return the platform's name in the jar, for example {@code linux-musl-x86_64} */
    String id() {
        return os + (musl ? "-musl-" : "-") + arch;
    }

    /**
     * How messages name the platform: its id, that its C library is musl (so that the glibc
     * library's absence is not a surprise), and the JVM's own words for it.
     *
     * @return for example {@code linux-musl-x86_64 (musl libc), the platform of os.name "Linux"
     *     and os.arch "amd64"}
     */
    String describe() {
        return id() + (musl ? " (musl libc)" : "") + ", the platform of os.name \"" + osName
                + "\" and os.arch \"" + osArch + "\"";
    }

    /** @return where the jar keeps the library for this platform */
    String resource() {
        return "/native/" + id() + "/" + libraryFileName();
    }

    /** @return the library's file name in the jar, for example {@code jp_jni.dll} */
    String libraryFileName() {
        return filePrefix() + "jp_jni" + fileSuffix();
    }

    /**
     * The library's name in the cache directory.
     *
     * @param hash the SHA-256 of its bytes
     * @param copy 0 for the library itself, {@code n} for its {@code n}th copy
     * @return for example {@code libjp_jni-<hash>.so} or {@code jp_jni-<hash>-2.dll}
     */
    String cachedName(String hash, int copy) {
        return cachedPrefix(hash) + (copy == 0 ? "" : "-" + copy) + fileSuffix();
    }

    /**
     * @param hash the SHA-256 of a library's bytes
     * @return how every cached name of that library starts
     */
    String cachedPrefix(String hash) {
        return filePrefix() + "jp_jni-" + hash;
    }

    /** @return a glob that matches the cached names of every library of this platform */
    String cachedGlob() {
        return filePrefix() + "jp_jni-*" + fileSuffix();
    }

    /**
     * Where this platform keeps a user's caches: {@code %LOCALAPPDATA%} on Windows, {@code
     * ~/Library/Caches} on macOS, else {@code $XDG_CACHE_HOME} or {@code ~/.cache}.
     *
     * @param environment the environment variables
     * @param home the user's home directory, or {@code null}
     * @return the directory, or {@code null} when the environment does not name one
     */
    Path userCacheDirectory(Function<String, String> environment, String home) {
        boolean hasHome = home != null && !home.isEmpty() && !home.equals("?");
        if (os.equals(WINDOWS)) {
            return absolute(environment.apply("LOCALAPPDATA"));
        }
        if (os.equals(MACOS)) {
            return hasHome ? Paths.get(home, "Library", "Caches") : null;
        }
        Path xdg = absolute(environment.apply("XDG_CACHE_HOME"));
        if (xdg != null) {
            return xdg;
        }
        return hasHome ? Paths.get(home, ".cache") : null;
    }

    private static Path absolute(String directory) {
        if (directory == null || directory.isEmpty()) {
            return null;
        }
        try {
            Path path = Paths.get(directory);
            return path.isAbsolute() ? path : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private String filePrefix() {
        return os.equals(WINDOWS) ? "" : "lib";
    }

    private String fileSuffix() {
        switch (os) {
            case MACOS:
                return ".dylib";
            case WINDOWS:
                return ".dll";
            default:
                return ".so";
        }
    }

    @Override
    public String toString() {
        return id();
    }
}
