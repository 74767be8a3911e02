import java.io.File;
import java.util.Arrays;
import org.apache.maven.cli.MavenCli;

/**
 * Runs the same Maven build twice in this one JVM, through Maven's own command-line entry point
 * (MavenCli, as IDEs and mvnd embed it). Each run makes a new Plexus container, so the second run
 * loads jp-maven-plugin, and with it jp-engine's native library, in a new class loader while the
 * first one is still in the JVM.
 *
 * <pre>
 * java -cp "$MAVEN_HOME/lib/*:$MAVEN_HOME/boot/*:$MAVEN_HOME/conf/logging" \
 *     -Dmaven.home=$MAVEN_HOME -Dmaven.multiModuleProjectDirectory=DIR \
 *     EmbeddedTwice.java DIR mvn-args...
 * </pre>
 *
 * Exits with the first non-zero exit status of the two builds, else 0.
 */
public final class EmbeddedTwice {
    private EmbeddedTwice() {}

    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: EmbeddedTwice DIR MVN-ARGS...");
            System.exit(2);
        }
        String dir = new File(args[0]).getAbsolutePath();
        String[] mvnArgs = Arrays.copyOfRange(args, 1, args.length);
        for (int run = 1; run <= 2; run++) {
            System.out.println("embedded build " + run + ": mvn " + String.join(" ", mvnArgs));
            int status = new MavenCli().doMain(mvnArgs.clone(), dir, System.out, System.err);
            System.out.println("embedded build " + run + " exit status " + status);
            if (status != 0) {
                System.exit(status);
            }
        }
        System.exit(0);
    }
}
