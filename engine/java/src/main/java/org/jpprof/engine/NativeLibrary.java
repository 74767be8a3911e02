package org.jpprof.engine;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileOwnerAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Finds JP's JNI library and loads it into this class's class loader. See docs/engine-jni.md.
 *
 * <ol>
 *   <li>{@code -Djp.engine.library=FILE} names the library to load; otherwise it is the jar's
 *       resource for this {@link Platform}, extracted to the cache directory as {@code
 *       libjp_jni-<sha-256 of its bytes>.so} ({@code .dylib} on macOS, {@code
 *       jp_jni-<hash>.dll} on Windows). The name is its content, so JVMs and builds that run at
 *       once share one file, and a different build never reuses it. A file is written to a
 *       temporary name and renamed into place, never written where a JVM may have mapped it.
 *   <li>A JVM loads a library file into one class loader only: {@code System.load} of a file
 *       already loaded by another class loader throws {@code UnsatisfiedLinkError}. Build daemons
 *       load plugins into a new class loader on every build, so the library is then loaded from a
 *       copy, {@code libjp_jni-<hash>-<n>.so} with the first {@code n} that no other class
 *       loader of this JVM holds. The copies stay in the cache directory for later JVMs to reuse.
 *       A name that cannot be written (Windows cannot replace a DLL that a process has loaded)
 *       is passed over the same way.
 *   <li>Libraries of other builds that no JVM loaded for {@value #UNUSED_DAYS} days are deleted,
 *       each as far as it can be (Windows cannot delete a DLL that a process has loaded).
 * </ol>
 *
 * <p>The cache directory is {@code -Djp.engine.cacheDir=DIR}, or {@code jp/engine} in the
 * platform's directory for a user's caches ({@link Platform#userCacheDirectory}), or, when that
 * cannot be used, {@code java.io.tmpdir/jp-engine-<user>}. A default directory is used only if
 * this user owns it and, where the file system has POSIX permissions, no one else may write to it.
 */
final class NativeLibrary {
    /** Names the library file to load instead of the jar's. */
    static final String LIBRARY_PROPERTY = "jp.engine.library";
    /** Names the directory that the library is extracted to. */
    static final String CACHE_DIR_PROPERTY = "jp.engine.cacheDir";
    /** How many class loaders of one JVM may hold the library at once. */
    static final int MAX_COPIES = 1000;
    /**
     * How many names may fail to be written before the loader gives up: names held by other JVMs
     * on Windows are a few at most, and each try writes the whole library.
     */
    static final int MAX_FAILED_NAMES = 16;

    /** Libraries of other builds unused for this long are deleted from the cache directory. */
    static final int UNUSED_DAYS = 30;

    private static final String OTHER_LOADER = "already loaded in another classloader";

    /** The platform of this JVM. */
    private static final Platform PLATFORM = Platform.current();

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
        return loadCopy(readResource(PLATFORM), null);
    }

    /**
     * Loads {@code bytes} from the cache directory: from the plain content-hash name, or from the
     * first numbered copy that no other class loader holds. {@code loaded} is a file already known
     * to be held by another class loader, or {@code null}.
     */
    static Path loadCopy(byte[] bytes, Path loaded) {
        String hash = sha256(bytes);
        Path directory = cacheDirectory();
        int failures = 0;
        Path failed = null;
        IOException failure = null;
        for (int n = 0; n <= MAX_COPIES; n++) {
            Path file = directory.resolve(PLATFORM.cachedName(hash, n));
            if (file.equals(loaded)) {
                continue;
            }
            try {
                materialize(file, bytes, hash);
            } catch (IOException e) {
                // The name is taken by something this JVM cannot replace: try the next one.
                failures++;
                failed = file;
                failure = e;
                if (failures == MAX_FAILED_NAMES) {
                    break;
                }
                continue;
            }
            if (tryLoad(file)) {
                markUsed(file);
                forgetOldLibraries(PLATFORM, directory, hash);
                return file;
            }
        }
        if (failure != null) {
            throw new EngineException("cannot extract JP's engine library into " + directory
                    + " (" + failures + " names tried, the last " + failed.getFileName() + "): "
                    + failure + " (choose another directory with -D" + CACHE_DIR_PROPERTY
                    + "=DIR)", failure);
        }
        throw new EngineException(
                MAX_COPIES + " class loaders of this JVM already hold JP's engine library ("
                        + directory + "); a build daemon that leaks class loaders keeps them");
    }

    /** Marks {@code loaded} as used now, so that {@link #forgetOldLibraries} keeps it. */
    private static void markUsed(Path loaded) {
        try {
            Files.setLastModifiedTime(loaded, FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException e) {
            // A read-only cache directory: the library is simply not marked.
        }
    }

    /**
     * Deletes the libraries of other builds that no JVM has used for {@value #UNUSED_DAYS} days,
     * so that upgrades do not fill the cache directory. Deleting a library that a JVM still has
     * mapped is harmless on Linux and macOS, and fails on Windows: such a file is left for a
     * later cleanup, and the others are still deleted. Best effort: failures are ignored.
     *
     * @param hash the hash of the library in use, whose copies are all kept
     */
    static void forgetOldLibraries(Platform platform, Path directory, String hash) {
        long cutoff = System.currentTimeMillis() - TimeUnit.DAYS.toMillis(UNUSED_DAYS);
        try (DirectoryStream<Path> files =
                Files.newDirectoryStream(directory, platform.cachedGlob())) {
            for (Path file : files) {
                if (!file.getFileName().toString().startsWith(platform.cachedPrefix(hash))) {
                    forgetIfUnused(file, cutoff);
                }
            }
        } catch (IOException | RuntimeException e) {
            // An unreadable directory: nothing to clean.
        }
    }

    private static void forgetIfUnused(Path file, long cutoff) {
        try {
            if (Files.getLastModifiedTime(file).toMillis() < cutoff) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // Still loaded (Windows) or not ours to delete: left for a later cleanup.
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

    /**
     * The jar's library for {@code platform}.
     *
     * @throws EngineException if the jar has none, naming the platforms it has and the way out
     */
    static byte[] readResource(Platform platform) {
        byte[] bytes;
        try {
            bytes = JarResources.read(platform.resource());
        } catch (IOException e) {
            throw new EngineException("cannot read JP's engine library " + platform.resource()
                    + " from " + JarResources.jar() + ": " + e, e);
        }
        if (bytes == null) {
            List<String> held = new ArrayList<>();
            for (Platform known : Platform.KNOWN) {
                if (JarResources.has(known.resource())) {
                    held.add(known.id());
                }
            }
            throw new EngineException("JP's engine has no library for " + platform.describe()
                    + ": " + JarResources.jar() + " holds "
                    + (held.isEmpty() ? "no library at all (a broken build?)"
                            : (held.size() == 1 ? "the library for " : "the libraries for ")
                                    + String.join(", ", held) + " only")
                    + "; build engine/jni on this platform (cargo build --release -p jp-jni) and"
                    + " name the library with -D" + LIBRARY_PROPERTY + "=FILE");
        }
        return bytes;
    }

    /**
     * Makes {@code file} hold exactly {@code bytes}: keeps it if its content hash is right,
     * otherwise writes it atomically ({@link AtomicFiles}).
     */
    static void materialize(Path file, byte[] bytes, String hash) throws IOException {
        if (holds(file, hash)) {
            return;
        }
        try {
            AtomicFiles.write(file, bytes);
        } catch (IOException e) {
            // Another JVM may have put the same library there first, and may now hold it loaded
            // (which makes the rename fail on Windows): then it is the file wanted all the same.
            try {
                if (holds(file, hash)) {
                    return;
                }
            } catch (IOException unreadable) {
                e.addSuppressed(unreadable);
            }
            throw e;
        }
    }

    /** Whether {@code file} is a regular file whose content has the SHA-256 {@code hash}. */
    private static boolean holds(Path file, String hash) throws IOException {
        return Files.isRegularFile(file) && sha256(Files.readAllBytes(file)).equals(hash);
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
        Path directory = defaultPrivateDirectory("engine", tried);
        if (directory == null) {
            throw new EngineException("no directory to extract JP's engine library to: tried "
                    + String.join(", ", tried) + "; choose one with -D" + CACHE_DIR_PROPERTY
                    + "=DIR");
        }
        return directory;
    }

    /**
     * The first of this user's default directories for JP's files of one kind that can be made
     * private ({@link #privateDirectory}): {@code jp/<name>} in the system's place for a user's
     * caches, else {@code ${java.io.tmpdir}/jp-<name>-<user>}.
     *
     * @param name the kind, {@code engine} or {@code agent}
     * @param tried receives each directory refused, with why
     * @return the directory, or {@code null} when none could be used
     */
    static Path defaultPrivateDirectory(String name, List<String> tried) {
        for (Path directory : defaultCacheDirectories(name)) {
            try {
                return privateDirectory(directory);
            } catch (IOException e) {
                tried.add(directory + " (" + e.getMessage() + ")");
            }
        }
        return null;
    }

    private static List<Path> defaultCacheDirectories(String name) {
        List<Path> directories = new ArrayList<>();
        Path userCache =
                PLATFORM.userCacheDirectory(System::getenv, System.getProperty("user.home"));
        if (userCache != null) {
            directories.add(userCache.resolve("jp").resolve(name));
        }
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        directories.add(Paths.get(System.getProperty("java.io.tmpdir"), "jp-" + name + "-" + user));
        return directories;
    }

    /**
     * Creates {@code directory} if needed and checks that this user owns it and, where the file
     * system has POSIX permissions, that no one else may write to it, so that no other user can
     * plant a library in it. (Windows has ACLs instead; the default directories there are in the
     * user's profile or temporary directory, which only the user may write to.)
     */
    static Path privateDirectory(Path directory) throws IOException {
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
        checkOwner(directory);
        return directory;
    }

    /**
     * Fails unless this user owns {@code directory}: the owner of a file created in it, or the
     * account that {@code user.name} names (an administrator's new files on Windows may belong to
     * the Administrators group instead of the user).
     */
    private static void checkOwner(Path directory) throws IOException {
        if (!Files.getFileStore(directory)
                .supportsFileAttributeView(FileOwnerAttributeView.class)) {
            throw new IOException("its owner cannot be checked on this file system");
        }
        UserPrincipal owner = Files.getOwner(directory);
        Path probe = Files.createFile(AtomicFiles.temporarySibling(directory.resolve("owner")));
        try {
            if (!owner.equals(Files.getOwner(probe)) && !owner.equals(namedUser(directory))) {
                throw new IOException("owned by " + owner.getName());
            }
        } finally {
            Files.deleteIfExists(probe);
        }
    }

    /** @return the account that {@code user.name} names, or {@code null} */
    private static UserPrincipal namedUser(Path directory) {
        try {
            return directory.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name", ""));
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
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
