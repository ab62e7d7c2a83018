import java.lang.reflect.Field;

/**
 * Starts Amazon's DynamoDB Local listening on one address (127.0.0.1 by default) instead of
 * every interface. DynamoDB Local has no flag for this (its -help lists -port, -inMemory,
 * -dbPath, -sharedDb, -cors, -delayTransientStatuses, -disableTelemetry, -optimizeDbBeforeStartup):
 * its server is a Jetty Server(port), which binds 0.0.0.0, so anyone on the network could read
 * and rewrite every game. This launcher builds the same server from the same arguments, sets
 * the host on its connectors before it starts, and starts it.
 *
 * Run in Java's single-file source mode (functions/store/dynamodb-local.ts):
 *   java -Djava.library.path=<lib>/DynamoDBLocal_lib -cp <lib>/DynamoDBLocal.jar LoopbackDynamoDBLocal.java -port N ...
 * Reflection only, so it compiles without the jar's classes on the compiler's path.
 */
public class LoopbackDynamoDBLocal {
  public static void main(String[] args) throws Exception {
    String host = System.getProperty("fieldpost.dynamodb.host", "127.0.0.1");
    Class<?> runner = Class.forName("software.amazon.dynamodb.services.local.main.ServerRunner");
    Object proxy = runner.getMethod("createServerFromCommandLineArgs", String[].class).invoke(null, (Object) args);
    Field f = proxy.getClass().getDeclaredField("server");
    f.setAccessible(true);
    Object server = f.get(proxy);
    Object[] connectors = (Object[]) server.getClass().getMethod("getConnectors").invoke(server);
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local has no connector to bind");
    for (Object c : connectors) c.getClass().getMethod("setHost", String.class).invoke(c, host);
    proxy.getClass().getMethod("start").invoke(proxy);
    System.out.println("DynamoDB Local listening on " + host);
  }
}
