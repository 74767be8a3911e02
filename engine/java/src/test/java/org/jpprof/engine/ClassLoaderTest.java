package org.jpprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a build daemon does: load the facade again in new class loaders, in the same JVM. A JVM
 * loads one library file into one class loader only, so each class loader gets its own copy.
 */
class ClassLoaderTest {
    @TempDir
    Path temp;

    /** A class loader like a plugin's: the facade's classes only, over the bootstrap loader. */
    static URLClassLoader facadeLoader() throws Exception {
        URL classes = Engine.class.getProtectionDomain().getCodeSource().getLocation();
        return new URLClassLoader(new URL[] {classes}, null);
    }

    /** {@code Engine.load()} in {@code loader}: the engine object. */
    static Object load(ClassLoader loader) throws Exception {
        Class<?> engine = Class.forName(Engine.class.getName(), true, loader);
        assertNotEquals(Engine.class, engine, "the facade is loaded again");
        try {
            return engine.getMethod("load").invoke(null);
        } catch (InvocationTargetException e) {
            throw (Exception) e.getCause();
        }
    }

    static String version(Object engine) throws Exception {
        return (String) engine.getClass().getMethod("version").invoke(engine);
    }

    static Path library(Object engine) throws Exception {
        return (Path) engine.getClass().getMethod("library").invoke(engine);
    }

    @Test
    void two_class_loaders_should_each_load_the_engine() throws Exception {
        Path first = Engine.load().library();
        try (URLClassLoader one = facadeLoader(); URLClassLoader two = facadeLoader()) {
            Object a = load(one);
            Object b = load(two);
            assertEquals(Engine.load().version(), version(a));
            assertEquals(Engine.load().version(), version(b));
            assertSame(a, load(one), "idempotent per class loader");
            Set<Path> files = new HashSet<>();
            files.add(first);
            files.add(library(a));
            files.add(library(b));
            assertEquals(3, files.size(), "one file per class loader: " + files);
            String hashName =
                    first.getFileName().toString().substring(0, "libjp_jni-".length() + 64);
            for (Path file : files) {
                assertEquals(first.getParent(), file.getParent());
                assertTrue(file.getFileName().toString().matches(
                        "\\Q" + hashName + "\\E(-[0-9]+)?\\.so"), file.toString());
            }
        }
    }

    @Test
    void an_engine_exception_should_be_the_class_of_the_calling_loader() throws Exception {
        try (URLClassLoader loader = facadeLoader()) {
            Object engine = load(loader);
            Class<?> exception = Class.forName(EngineException.class.getName(), false, loader);
            Class<?> native_ = Class.forName(NativeEngine.class.getName(), false, loader);
            java.lang.reflect.Method instrument =
                    native_.getDeclaredMethod("instrument", String.class);
            instrument.setAccessible(true);
            try {
                instrument.invoke(null, "not json");
                throw new AssertionError("a bad request must throw");
            } catch (InvocationTargetException e) {
                assertSame(exception, e.getCause().getClass(), String.valueOf(e.getCause()));
            }
            assertEquals(Engine.load().version(), version(engine));
        }
    }

    @Test
    void libraries_of_other_builds_unused_for_a_month_should_be_deleted() throws Exception {
        Path directory = Engine.load().library().getParent();
        Path old = directory.resolve("libjp_jni-0000old.so");
        Path recent = directory.resolve("libjp_jni-0000recent.so");
        Path other = directory.resolve("notes.txt");
        long month = TimeUnit.DAYS.toMillis(NativeLibrary.UNUSED_DAYS + 1);
        for (Path file : new Path[] {old, recent, other}) {
            Files.write(file, new byte[] {1});
        }
        Files.setLastModifiedTime(old, FileTime.fromMillis(System.currentTimeMillis() - month));
        Files.setLastModifiedTime(other, FileTime.fromMillis(System.currentTimeMillis() - month));
        try (URLClassLoader loader = facadeLoader()) {
            load(loader);
        } finally {
            Files.deleteIfExists(recent);
            Files.deleteIfExists(other);
        }
        assertTrue(Files.notExists(old), "an old library of another build is deleted");
    }

    @Test
    void the_library_property_should_name_the_file_to_load() throws Exception {
        Path override = temp.resolve("custom").resolve("libjp_jni.so");
        Files.createDirectories(override.getParent());
        Files.copy(Engine.load().library(), override);
        String previous = System.setProperty(NativeLibrary.LIBRARY_PROPERTY, override.toString());
        try (URLClassLoader one = facadeLoader(); URLClassLoader two = facadeLoader()) {
            Object a = load(one);
            assertEquals(override, library(a));
            assertEquals(Engine.load().version(), version(a));
            // The file is taken: a second class loader gets a copy in the cache directory.
            Object b = load(two);
            assertEquals(Engine.load().library().getParent(), library(b).getParent());
            assertEquals(Engine.load().version(), version(b));
        } finally {
            restore(NativeLibrary.LIBRARY_PROPERTY, previous);
        }
    }

    @Test
    void a_library_property_that_names_no_file_should_say_so() throws Exception {
        Path missing = temp.resolve("nothing.so");
        String previous = System.setProperty(NativeLibrary.LIBRARY_PROPERTY, missing.toString());
        try (URLClassLoader loader = facadeLoader()) {
            Exception e = assertThrowsEngineException(loader);
            assertEquals("-Djp.engine.library names " + missing + ", which is not a file",
                    e.getMessage());
        } finally {
            restore(NativeLibrary.LIBRARY_PROPERTY, previous);
        }
    }

    @Test
    void a_library_property_that_names_no_library_should_name_the_file() throws Exception {
        Path bogus = temp.resolve("bogus.so");
        Files.write(bogus, elfWithoutSegments());
        String previous = System.setProperty(NativeLibrary.LIBRARY_PROPERTY, bogus.toString());
        try (URLClassLoader loader = facadeLoader()) {
            Exception e = assertThrowsEngineException(loader);
            assertTrue(e.getMessage().startsWith("cannot load JP's engine library " + bogus + ": "),
                    e.getMessage());
        } finally {
            restore(NativeLibrary.LIBRARY_PROPERTY, previous);
        }
    }

    /**
     * A 64-bit shared-object header whose only program header marks the stack non-executable (or
     * HotSpot warns about it) and that has nothing to load, so {@code dlopen} refuses it cleanly.
     * (A truncated real library is no good: the dynamic loader maps it and dies of SIGBUS.)
     */
    private static byte[] elfWithoutSegments() {
        ByteBuffer elf = ByteBuffer.allocate(64 + 56).order(ByteOrder.LITTLE_ENDIAN);
        elf.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0}).put(new byte[8]); // e_ident
        elf.putShort((short) 3).putShort((short) 62).putInt(1); // ET_DYN, EM_X86_64, EV_CURRENT
        elf.putLong(0).putLong(64).putLong(0).putInt(0); // entry, phoff, shoff, flags
        elf.putShort((short) 64).putShort((short) 56).putShort((short) 1); // ehsize, phentsize, phnum
        elf.putShort((short) 64).putShort((short) 0).putShort((short) 0); // shentsize, shnum, shstrndx
        elf.putInt(0x6474e551).putInt(6); // PT_GNU_STACK, PF_R | PF_W
        elf.putLong(0).putLong(0).putLong(0).putLong(0).putLong(0).putLong(16);
        return elf.array();
    }

    private static Exception assertThrowsEngineException(ClassLoader loader) {
        try {
            load(loader);
        } catch (Exception e) {
            assertEquals(EngineException.class.getName(), e.getClass().getName(), e.toString());
            return e;
        }
        throw new AssertionError("Engine.load() must fail");
    }

    private static void restore(String key, String previous) {
        if (previous == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, previous);
        }
    }
}
