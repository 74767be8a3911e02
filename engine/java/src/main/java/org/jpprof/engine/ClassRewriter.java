package org.jpprof.engine;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Rewrites classes one at a time, in memory, as a load-time agent needs: the engine resolved its
 * {@link ClassRewriterSettings} once, when {@link Engine#classRewriter} made it, and each class
 * then goes through the class filter and the rewrite of {@code jp instrument}. Thread-safe.
 */
public final class ClassRewriter {
    private final long number;

    ClassRewriter(long number) {
        this.number = number;
    }

    /**
     * Rewrites one class.
     *
     * @param className the class's internal name, {@code com/acme/Main}, as the JVM gives it
     * @param classBytes the class file
     * @return what became of the class, or {@code null} when the settings leave it alone
     * @throws EngineException if the class cannot be read at all (malformed, of a class-file
     *     version JP does not read, already instrumented), with a message that names it
     */
    public RewrittenClass rewrite(String className, byte[] classBytes) {
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(classBytes, "classBytes");
        byte[] answer = NativeEngine.rewriteClass(number, className, classBytes);
        return answer == null ? null : decode(answer);
    }

    /**
     * Reads the engine's answer: a 4-byte big-endian length, that many bytes of UTF-8 JSON
     * ({@code {"warnings": [...]}}), then the rewritten class (nothing when it is kept as it was).
     */
    static RewrittenClass decode(byte[] answer) {
        if (answer.length < 4) {
            throw new EngineException("JP's engine returned a truncated class answer");
        }
        int length = (answer[0] & 0xff) << 24 | (answer[1] & 0xff) << 16 | (answer[2] & 0xff) << 8
                | answer[3] & 0xff;
        if (length < 0 || length > answer.length - 4) {
            throw new EngineException("JP's engine returned a truncated class answer");
        }
        String head = new String(answer, 4, length, StandardCharsets.UTF_8);
        List<String> warnings = new ArrayList<>();
        try {
            Map<String, Object> object = GateJson.object(head);
            Object list = object.get("warnings");
            if (!(list instanceof List)) {
                throw new IllegalArgumentException("no list of warnings: " + head);
            }
            for (Object warning : (List<?>) list) {
                warnings.add(String.valueOf(warning));
            }
        } catch (IllegalArgumentException e) {
            throw new EngineException("JP's engine returned a class answer this jp-engine cannot "
                    + "read: " + e.getMessage(), e);
        }
        int start = 4 + length;
        byte[] bytes = null;
        if (start < answer.length) {
            bytes = new byte[answer.length - start];
            System.arraycopy(answer, start, bytes, 0, bytes.length);
        }
        return new RewrittenClass(bytes, Collections.unmodifiableList(warnings));
    }

    /** A class the settings admit, rewritten or kept as it was, with what was kept and why. */
    public static final class RewrittenClass {
        private final byte[] bytes;
        private final List<String> warnings;

        RewrittenClass(byte[] bytes, List<String> warnings) {
            this.bytes = bytes;
            this.warnings = warnings;
        }

        /** @return the rewritten class file, or {@code null} when the class is kept as it was */
        public byte[] bytes() {
            return bytes;
        }

        /**
         * @return what was kept as it was and why ({@code com/acme/Main.run()V: ...}, or the class
         *     as a whole), and cache problems the engine worked around
         */
        public List<String> warnings() {
            return warnings;
        }
    }
}
