package org.jpprof.engine;

/**
 * Thrown when JP's engine cannot do what was asked: the native library cannot be loaded, its
 * version does not match this facade, the request is invalid as a whole (for example an unwritable
 * output directory), or the engine failed. The message is complete and names the file concerned;
 * a failure in the engine itself (a Rust panic) is reported this way too, never as a crash.
 *
 * <p>A class file that cannot be instrumented is not an exception: it is an error in the
 * {@link InstrumentResult}, and the other inputs are still instrumented.
 */
public class EngineException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message. The native library throws through this constructor.
     *
     * @param message what went wrong, with the file concerned
     */
    public EngineException(String message) {
        super(message);
    }

    /**
     * An exception with a message and its cause.
     *
     * @param message what went wrong, with the file concerned
     * @param cause the underlying failure
     */
    public EngineException(String message, Throwable cause) {
        super(message, cause);
    }
}
