import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Reads every class of some roots the way an old bytecode tool does: with field, method and
 * annotation visitors created for ASM's API level 5 (Java 8's), as the visitors of Mockito 2's
 * inline mock maker, JMockit, PowerMock and older AspectJ are, under a class visitor of the newest
 * level (as the Byte Buddy or ASM they run on is). Such a visitor throws
 * {@code UnsupportedOperationException} on code API 5 cannot represent, such as an {@code ldc} of
 * a {@code CONSTANT_Dynamic}; members and code are what instrumentation adds to.
 *
 * <pre>
 * java -cp asm.jar:. OldAsmRead ROOT...
 * </pre>
 *
 * <p>Prints one line per class, {@code index!name<TAB>ok} or {@code index!name<TAB>error: ...},
 * where index is the root's position on the command line, so that the lines of an original and an
 * instrumented set of roots can be joined. Needs ASM 9 on the class path (its ClassReader parses
 * every class; the visitors' API level decides what they accept).
 */
public final class OldAsmRead {
    private OldAsmRead() {}

    private static final int API = Opcodes.ASM5;

    public static void main(String[] args) throws Exception {
        List<ClassRoots.Root> roots = new ArrayList<>();
        for (String arg : args) roots.add(ClassRoots.open(Path.of(arg)));
        for (int i = 0; i < roots.size(); i++) {
            ClassRoots.Root root = roots.get(i);
            for (int release : root.releases()) {
                for (String name : root.classesAt(release)) {
                    String key = i + "!" + (release == 0 ? "" : "versions/" + release + "/") + name;
                    System.out.println(key + "\t" + read(root.exactBytes(name, release)));
                }
            }
            root.close();
        }
    }

    private static String read(byte[] bytes) {
        try {
            new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                    return new AnnotationVisitor(API) {};
                }

                @Override
                public FieldVisitor visitField(int access, String name, String descriptor, String signature,
                        Object value) {
                    return new FieldVisitor(API) {};
                }

                @Override
                public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                        String[] exceptions) {
                    return new MethodVisitor(API) {};
                }
            }, 0);
            return "ok";
        } catch (RuntimeException e) {
            return "error: " + e;
        }
    }
}
