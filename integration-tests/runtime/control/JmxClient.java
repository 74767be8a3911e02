import com.sun.tools.attach.VirtualMachine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Drives Remote (the JVM PID) through JP's MBean, over a local JMX connection as jconsole makes
 * one: attach, start the local management agent, then start recording, let Remote run its
 * middle phase (file go), stop recording once it is done (file phase-done), write the profile
 * (its path printed), and let Remote end (file exit).
 */
public class JmxClient {
    public static void main(String[] args) throws Exception {
        String pid = args[0];
        Path dir = Paths.get(args[1]);
        VirtualMachine vm = VirtualMachine.attach(pid);
        String address = vm.startLocalManagementAgent();
        vm.detach();
        try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            ObjectName control = new ObjectName("org.jpprof:type=Control");
            System.out.println("recording before: " + server.getAttribute(control, "Recording"));
            server.invoke(control, "start", new Object[0], new String[0]);
            Files.createFile(dir.resolve("go"));
            while (!Files.exists(dir.resolve("phase-done"))) {
                Thread.sleep(20);
            }
            server.invoke(control, "stop", new Object[0], new String[0]);
            System.out.println("recording after: " + server.getAttribute(control, "Recording"));
            System.out.println("written: " + server.invoke(control, "writeProfile", new Object[0], new String[0]));
        }
        Files.createFile(dir.resolve("exit"));
    }
}
