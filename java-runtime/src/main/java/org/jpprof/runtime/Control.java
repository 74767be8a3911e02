package org.jpprof.runtime;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The MBean of {@link ControlMBean}, registered in the platform MBean server with
 * {@code jp.jmx=true}. Not by default: creating the platform MBean server early changes what an
 * application server that configures its own (through {@code javax.management.builder.initial})
 * gets.
 */
public final class Control implements ControlMBean {
    /** The MBean's name. */
    public static final String NAME = "org.jpprof:type=Control";

    /** Registers the MBean when {@code jp.jmx=true}; a failure is reported on stderr, once. */
    static void registerIfAsked() {
        String jmx = Agents.property("jp.jmx", "false");
        if (!"true".equals(jmx)) {
            if (!"false".equals(jmx)) Agents.warn("jp.jmx=" + jmx + " is neither true nor false; no MBean");
            return;
        }
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(new Control(), new ObjectName(NAME));
        } catch (JMException | RuntimeException | LinkageError e) {
            // LinkageError: a runtime image without the java.management module.
            Agents.warn("cannot register the MBean " + NAME + ": " + e);
        }
    }

    @Override
    public void start() {
        JP.start();
    }

    @Override
    public void stop() {
        JP.stop();
    }

    @Override
    public void reset() {
        JP.reset();
    }

    @Override
    public boolean isRecording() {
        return JP.isRecording();
    }

    @Override
    public String writeProfile() {
        Path written = JP.writeProfile();
        return written == null ? null : written.toString();
    }
}
