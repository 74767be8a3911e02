package org.jpprof.engine;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Finds JP's JNI library and loads it into this class's class loader. See docs/engine-jni.md.
 *
 * <ol>
 *   <li>{@code -Djp.engine.library=FILE} names the library to load; otherwise it is the jar's
 *       resource {@value #RESOURCE}, extracted to the cache directory as
 *       {@code libjp_jni-<sha-256 of its bytes>.so}. The name is its content, so JVMs and builds
 *       that run at once share one file, and a different build never reuses it. A file is written
 *       to a temporary name and renamed into place, never written where a JVM may have mapped it.
 *   <li>A JVM loads a library file into one class loader only: {@code System.load} of a file
 *       already loaded by another class loader throws {@code UnsatisfiedLinkError}. Build daemons
 *       load plugins into a new class loader on every build, so the library is then loaded from a
 *       copy, {@code libjp_jni-<hash>-<n>.so} with the first {@code n} that no other class
 *       loader of this JVM holds. The copies stay in the cache directory for later JVMs to reuse.
 *   <li>Libraries of other builds that no JVM loaded for {@value #UNUSED_DAYS} days are deleted.
 * </ol>
 *
 * <p>The cache directory is {@code -Djp.engine.cacheDir=DIR}, or {@code $XDG_CACHE_HOME/jp/engine}
 * (default {@code ~/.cache/jp/engine}), or, when that cannot be used, {@code
 * java.io.tmpdir/jp-engine-<user>}. A default directory is used only if this user owns it and no
 * one else may write to it.
 */
final class NativeLibrary {
    /** Where the jar holds the library. */
    static final String RESOURCE = "/native/linux-x86_64/libjp_jni.so";
    /** Names the library file to load instead of the jar's. */
    static final String LIBRARY_PROPERTY = "jp.engine.library";
    /** Names the directory that the library is extracted to. */
    static final String CACHE_DIR_PROPERTY = "jp.engine.cacheDir";
    /** How many class loaders of one JVM may hold the library at once. */
    static final int MAX_COPIES = 1000;

    /** Libraries of other builds unused for this long are deleted from the cache directory. */
    static final int UNUSED_DAYS = 30;

    private static final String OTHER_LOADER = "already loaded in another classloader";

    private NativeLibrary() {}

    /**
     * Loads the library into this class's class loader.
     *
     * @return the file that was loaded
     * @throws EngineException if no library can be found, extracted or loaded
     */
    static Path load() {
        String override = System.getProperty(LIBRARY_PROPERTY);
        if (override != null && !override.isEmpty()) {
            Path file = Paths.get(override).toAbsolutePath().normalize();
            if (!Files.isRegularFile(file)) {
                throw new EngineException(
                        "-D" + LIBRARY_PROPERTY + " names " + file + ", which is not a file");
            }
            if (tryLoad(file)) {
                return file;
            }
            // Another class loader has that very file: load a copy, as for the jar's library.
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (IOException e) {
                throw new EngineException("cannot read JP's engine library " + file + ": " + e, e);
            }
            return loadCopy(bytes, file);
        }
        checkPlatform();
        byte[] bytes = readResource();
        return loadCopy(bytes, null);
    }

    /**
     * Loads {@code bytes} from the cache directory: from the plain content-hash name, or from the
     * first numbered copy that no other class loader holds. {@code loaded} is a file already known
     * to be held by another class loader, or {@code null}.
     */
    private static Path loadCopy(byte[] bytes, Path loaded) {
        String hash = sha256(bytes);
        Path directory = cacheDirectory();
        for (int n = 0; n <= MAX_COPIES; n++) {
            String suffix = n == 0 ? ".so" : "-" + n + ".so";
            Path file = directory.resolve("libjp_jni-" + hash + suffix);
            if (file.equals(loaded)) {
                continue;
            }
            try {
                materialize(file, bytes, hash);
            } catch (IOException e) {
                throw new EngineException(
                        "cannot extract JP's engine library to " + file + ": " + e
                                + " (choose another directory with -D" + CACHE_DIR_PROPERTY
                                + "=DIR)",
                        e);
            }
            if (tryLoad(file)) {
                forgetOldLibraries(directory, hash, file);
                return file;
            }
        }
        throw new EngineException(
                MAX_COPIES + " class loaders of this JVM already hold JP's engine library ("
                        + directory + "); a build daemon that leaks class loaders keeps them");
    }

    /**
     * Marks {@code loaded} as used, and deletes the libraries of other builds that no JVM has used
     * for {@value #UNUSED_DAYS} days, so that upgrades do not fill the cache directory. Deleting
     * a library that a JVM still has mapped is harmless on Linux. Best effort: failures are
     * ignored.
     */
    private static void forgetOldLibraries(Path directory, String hash, Path loaded) {
        try {
            Files.setLastModifiedTime(loaded, FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException e) {
            // A read-only cache directory: nothing to clean either.
            return;
        }
        long cutoff = System.currentTimeMillis() - TimeUnit.DAYS.toMillis(UNUSED_DAYS);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "libjp_jni-*.so")) {
            for (Path file : files) {
                if (!file.getFileName().toString().startsWith("libjp_jni-" + hash)
                        && Files.getLastModifiedTime(file).toMillis() < cutoff) {
                    Files.deleteIfExists(file);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Best effort.
        }
    }

    /**
     * Loads {@code file} into this class loader.
     *
     * @return {@code false} if another class loader of this JVM holds that file
     */
    private static boolean tryLoad(Path file) {
        try {
            System.load(file.toString());
            return true;
        } catch (UnsatisfiedLinkError e) {
            String message = String.valueOf(e.getMessage());
            if (message.contains(OTHER_LOADER)) {
                return false;
            }
            String hint = message.contains("failed to map segment")
                    ? " (is its directory mounted noexec? choose another with -D"
                            + CACHE_DIR_PROPERTY + "=DIR)"
                    : "";
            throw new EngineException(
                    "cannot load JP's engine library " + file + ": " + message + hint, e);
        }
    }

    /** Fails unless this JVM runs where the jar's library can run. */
    private static void checkPlatform() {
        String error = platformError(
                System.getProperty("os.name", "?"), System.getProperty("os.arch", "?"));
        if (error != null) {
            throw new EngineException(error);
        }
    }

    /**
     * Why the jar's library cannot run on a platform.
     *
     * @param os the {@code os.name}
     * @param arch the {@code os.arch}
     * @return the message, or {@code null} if it can run there
     */
    static String platformError(String os, String arch) {
        boolean linux = os.toLowerCase(Locale.ROOT).startsWith("linux");
        boolean x86_64 = arch.equals("amd64") || arch.equals("x86_64");
        if (linux && x86_64) {
            return null;
        }
        return "JP's engine is built for linux-x86_64; this is " + os + "/" + arch
                + " (build the engine for it and name it with -D" + LIBRARY_PROPERTY + "=FILE)";
    }

    private static byte[] readResource() {
        byte[] bytes;
        try {
            bytes = JarResources.read(RESOURCE);
        } catch (IOException e) {
            throw new EngineException("cannot read JP's engine library from the jar: " + e, e);
        }
        if (bytes == null) {
            throw new EngineException(JarResources.jar() + ": this jp-engine has no native library at "
                    + RESOURCE + " (a broken build?); name one with -D" + LIBRARY_PROPERTY + "=FILE");
        }
        return bytes;
    }

    /**
     * Makes {@code file} hold exactly {@code bytes}: keeps it if its content hash is right,
     * otherwise writes it atomically ({@link AtomicFiles}).
     */
    static void materialize(Path file, byte[] bytes, String hash) throws IOException {
        if (Files.isRegularFile(file) && sha256(Files.readAllBytes(file)).equals(hash)) {
            return;
        }
        AtomicFiles.write(file, bytes);
    }

    /** The directory that the library is extracted to (see the class comment). */
    static Path cacheDirectory() {
        String configured = System.getProperty(CACHE_DIR_PROPERTY);
        if (configured != null && !configured.isEmpty()) {
            Path directory = Paths.get(configured).toAbsolutePath().normalize();
            try {
                Files.createDirectories(directory);
                return directory;
            } catch (IOException e) {
                throw new EngineException("-D" + CACHE_DIR_PROPERTY + " names " + directory
                        + ", which cannot be used: " + e, e);
            }
        }
        List<String> tried = new ArrayList<>();
        for (Path directory : defaultCacheDirectories()) {
            try {
                return privateDirectory(directory);
            } catch (IOException e) {
                tried.add(directory + " (" + e.getMessage() + ")");
            }
        }
        throw new EngineException("no directory to extract JP's engine library to: tried "
                + String.join(", ", tried) + "; choose one with -D" + CACHE_DIR_PROPERTY + "=DIR");
    }

    private static List<Path> defaultCacheDirectories() {
        List<Path> directories = new ArrayList<>();
        String xdg = System.getenv("XDG_CACHE_HOME");
        String home = System.getProperty("user.home");
        if (xdg != null && Paths.get(xdg).isAbsolute()) {
            directories.add(Paths.get(xdg, "jp", "engine"));
        } else if (home != null && !home.isEmpty() && !home.equals("?")) {
            directories.add(Paths.get(home, ".cache", "jp", "engine"));
        }
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        directories.add(Paths.get(System.getProperty("java.io.tmpdir"), "jp-engine-" + user));
        return directories;
    }

    /**
     * Creates {@code directory} if needed and checks that this user owns it and that no one else
     * may write to it, so that no other user can plant a library in it.
     */
    private static Path privateDirectory(Path directory) throws IOException {
        boolean posix = directory.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (posix) {
            FileAttribute<Set<PosixFilePermission>> ownerOnly = PosixFilePermissions
                    .asFileAttribute(PosixFilePermissions.fromString("rwx------"));
            try {
                Files.createDirectories(directory, ownerOnly);
            } catch (FileAlreadyExistsException e) {
                throw new IOException("not a directory", e);
            }
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(directory);
            if (permissions.contains(PosixFilePermission.GROUP_WRITE)
                    || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
                throw new IOException("others may write to it");
            }
        } else {
            Files.createDirectories(directory);
        }
        // A file created here is owned by this user: the directory must be too.
        Path probe = Files.createTempFile(directory, "owner", ".tmp");
        try {
            UserPrincipal me = Files.getOwner(probe);
            if (!me.equals(Files.getOwner(directory))) {
                throw new IOException("owned by " + Files.getOwner(directory).getName());
            }
        } finally {
            Files.deleteIfExists(probe);
        }
        return directory;
    }

    /** The SHA-256 of {@code bytes}, in lower-case hex. */
    static String sha256(byte[] bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            StringBuilder hex = new StringBuilder(digest.length * 2);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16));
                hex.append(Character.forDigit(b & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
