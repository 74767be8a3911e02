import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Downloads Maven Central artifacts into a directory, each checked against the SHA-1 that Central
 * publishes beside it and written atomically; one already there is kept.
 *
 * <p>Usage: {@code java Fetch.java <directory> <group:artifact:version>...}; prints the jars' paths.
 */
public final class Fetch {
    private static final String CENTRAL = "https://repo1.maven.org/maven2/";

    private Fetch() {}

    public static void main(String[] args) throws IOException, InterruptedException, NoSuchAlgorithmException {
        Path dir = Files.createDirectories(Paths.get(args[0]));
        for (int i = 1; i < args.length; i++) {
            String[] gav = args[i].split(":");
            String file = gav[1] + "-" + gav[2] + ".jar";
            Path jar = dir.resolve(file);
            if (!Files.exists(jar)) {
                String url = CENTRAL + gav[0].replace('.', '/') + "/" + gav[1] + "/" + gav[2] + "/" + file;
                download(url, jar);
            }
            System.out.println(jar.toAbsolutePath());
        }
    }

    private static void download(String url, Path jar) throws IOException, NoSuchAlgorithmException {
        Path partial = Files.createTempFile(jar.getParent(), jar.getFileName().toString(), ".partial");
        try {
            try (InputStream in = URI.create(url).toURL().openStream()) {
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            }
            String expected;
            try (InputStream in = URI.create(url + ".sha1").toURL().openStream()) {
                expected = new String(in.readAllBytes()).trim().split("\\s+")[0];
            }
            String actual = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(Files.readAllBytes(partial)));
            if (!actual.equalsIgnoreCase(expected)) {
                throw new IOException(url + ": SHA-1 " + actual + ", but Maven Central says " + expected);
            }
            Files.move(partial, jar, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
