import java.io.File;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import org.gradle.api.internal.StartParameterInternal;
import org.gradle.api.internal.file.FileCollectionFactory;
import org.gradle.api.logging.configuration.ConsoleOutput;
import org.gradle.cli.CommandLineParser;
import org.gradle.cli.ParsedCommandLine;
import org.gradle.configuration.DefaultBuildClientMetaData;
import org.gradle.configuration.GradleLauncherMetaData;
import org.gradle.initialization.DefaultBuildCancellationToken;
import org.gradle.initialization.DefaultBuildRequestContext;
import org.gradle.initialization.DefaultBuildRequestMetaData;
import org.gradle.initialization.NoOpBuildEventConsumer;
import org.gradle.initialization.layout.BuildLayoutFactory;
import org.gradle.internal.buildprocess.BuildProcessState;
import org.gradle.internal.classpath.ClassPath;
import org.gradle.internal.instrumentation.agent.AgentStatus;
import org.gradle.internal.logging.LoggingManagerInternal;
import org.gradle.internal.logging.services.LoggingServiceRegistry;
import org.gradle.internal.nativeintegration.services.NativeServices;
import org.gradle.internal.service.ServiceRegistry;
import org.gradle.internal.service.ServiceRegistryBuilder;
import org.gradle.internal.service.scopes.BasicGlobalScopeServices;
import org.gradle.internal.service.scopes.Scope;
import org.gradle.launcher.cli.BuildEnvironmentConfigurationConverter;
import org.gradle.launcher.cli.Parameters;
import org.gradle.launcher.exec.BuildActionResult;
import org.gradle.launcher.exec.BuildExecutor;
import org.gradle.launcher.exec.DefaultBuildActionParameters;
import org.gradle.util.GradleVersion;
import org.gradle.tooling.internal.provider.action.ExecuteBuildAction;

/** Runs one build in this JVM, as `gradle --no-daemon` would, and returns its exit status. */
public final class InProcessGradle {
    private InProcessGradle() {}

    public static int run(String[] args) throws Exception {
        long start = ManagementFactory.getRuntimeMXBean().getStartTime();
        NativeServices.initializeOnClient(userHome(args), NativeServices.NativeServicesMode.fromSystemProperties());
        ServiceRegistry logging = LoggingServiceRegistry.newCommandLineProcessLogging();
        LoggingManagerInternal output = logging.getFactory(LoggingManagerInternal.class).create();
        output.attachProcessConsole(ConsoleOutput.Plain);
        output.start();
        try {
            CommandLineParser parser = new CommandLineParser();
            ServiceRegistry basic = ServiceRegistryBuilder.builder()
                    .scope(Scope.Global.class)
                    .displayName("basic services")
                    .parent(logging)
                    .parent(NativeServices.getInstance())
                    .provider(new BasicGlobalScopeServices())
                    .build();
            BuildEnvironmentConfigurationConverter converter =
                    new BuildEnvironmentConfigurationConverter(new BuildLayoutFactory(), basic.get(FileCollectionFactory.class));
            converter.configure(parser);
            parser.option("v", "version");
            ParsedCommandLine commandLine = parser.parse(args);
            if (commandLine.hasOption("version")) {
                System.out.println("Gradle " + GradleVersion.current().getVersion() + " (in-process harness)");
                return 0;
            }
            Parameters parameters = converter.convertParameters(commandLine, null);
            StartParameterInternal startParameter = parameters.getStartParameter();
            output.setLevelInternal(startParameter.getLogLevel());
            // What `-Dname=value` sets in the build JVM, which a daemon would be.
            System.getProperties().putAll(startParameter.getSystemPropertiesArgs());
            Map<String, String> environment = new HashMap<>(System.getenv());
            try (BuildProcessState state = new BuildProcessState(
                    startParameter.isContinuous(), AgentStatus.disabled(), ClassPath.EMPTY, logging, NativeServices.getInstance())) {
                BuildExecutor executor = state.getServices().get(BuildExecutor.class);
                BuildActionResult result = executor.execute(
                        new ExecuteBuildAction(startParameter),
                        new DefaultBuildActionParameters(
                                parameters.getDaemonParameters().getEffectiveSystemProperties(), environment,
                                new File(System.getProperty("user.dir")), startParameter.getLogLevel(), false, ClassPath.EMPTY),
                        new DefaultBuildRequestContext(
                                new DefaultBuildRequestMetaData(new DefaultBuildClientMetaData(new GradleLauncherMetaData()), start, false),
                                new DefaultBuildCancellationToken(), new NoOpBuildEventConsumer()));
                return result.hasFailure() ? 1 : 0;
            }
        } finally {
            output.stop();
        }
    }

    /** The Gradle user home of the command line (-g), else of GRADLE_USER_HOME, else ~/.gradle. */
    private static File userHome(String[] args) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("-g") || args[i].equals("--gradle-user-home")) return new File(args[i + 1]).getAbsoluteFile();
        }
        String variable = System.getenv("GRADLE_USER_HOME");
        return variable != null ? new File(variable) : new File(System.getProperty("user.home"), ".gradle");
    }
}
