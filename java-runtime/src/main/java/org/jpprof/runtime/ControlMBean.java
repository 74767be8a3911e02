package org.jpprof.runtime;

/**
 * JP's run-time control as a JMX MBean, {@value Control#NAME}: what {@link JP} offers, for
 * {@code jconsole} or any JMX client.
 */
public interface ControlMBean {
    /** {@link JP#start()}. */
    void start();

    /** {@link JP#stop()}. */
    void stop();

    /** {@link JP#reset()}. */
    void reset();

    /** {@link JP#isRecording()}. */
    boolean isRecording();

    /** {@link JP#writeProfile()}: the path written, or null. */
    String writeProfile();
}
