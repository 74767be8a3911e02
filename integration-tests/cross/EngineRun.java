// The cross suite's driver (suites/cross.py): instruments through jp-engine.jar's Java facade, as
// the build plugins do, on whatever JVM runs it (an arm64 JVM under qemu, a Windows JVM under
// Wine, the host's). `java -cp jp-engine.jar:DIR EngineRun OUTPUT INPUT...`. Prints the platform
// the JVM reports, the library file the facade loaded, and the instrument counts; exits 1 when an
// input failed.
import java.nio.file.Path;
import java.nio.file.Paths;
import org.jpprof.engine.Engine;
import org.jpprof.engine.InstrumentRequest;
import org.jpprof.engine.InstrumentResult;

public final class EngineRun {
    private EngineRun() {}

    public static void main(String[] args) {
        Engine engine = Engine.load();
        InstrumentRequest.Builder request = InstrumentRequest.builder().output(Paths.get(args[0]));
        for (int i = 1; i < args.length; i++) {
            request.input(Paths.get(args[i]));
        }
        InstrumentResult result = engine.instrument(request.build());
        Path library = engine.library();
        System.out.println("os " + System.getProperty("os.name") + " / " + System.getProperty("os.arch"));
        System.out.println("library " + library.getFileName());
        System.out.println("rewritten " + result.rewritten() + ", unchanged " + result.unchanged()
                + ", copied " + result.copied() + ", errors " + result.errors().size());
        System.exit(result.errors().isEmpty() ? 0 : 1);
    }
}
