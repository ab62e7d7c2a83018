import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { freePort } from '../../functions/store/dynamodb-local.js';
import { signLocalJwt } from '../../functions/http/jwt.js';
import { FAULT_KINDS, type FaultKind } from './faults.js';

/**
 * The harness's side of the chaos run's API runtime (tests/chaos/runtime-child.ts): a child
 * process on a fixed port, on the harness's DynamoDB Local (which outlives it), with a data
 * folder of its own (the stream checkpoint file). killRuntime() ends it with SIGKILL, as
 * `kill -9` does, and starts it again on the same port; the table and the checkpoint file
 * are what the next one finds.
 */

/** What a child needs to know (its argv[2], as JSON). */
export interface ChildConfig {
  readonly port: number;
  readonly dataDir: string;
  readonly dynamoEndpoint: string;
  readonly tableName: string;
  readonly jwtSecret: string;
  readonly faultRate: number;
  readonly faultSeed: number;
  readonly warp: number;
  /** The warped clock's start (ms since the epoch): the same in every child, so the notifier's time never goes back. */
  readonly clockOrigin: number;
}

export type ToChild = { type: 'stop-faults' } | { type: 'die-after-append' } | { type: 'kill-consumer' } | { type: 'status' } | { type: 'stop' };

/** The stream consumer's state, for the report. */
export interface ConsumerStatus {
  /** Stream records handed over since it (or the process) last started. */
  readonly delivered: number;
  readonly parkedGames: number;
  /** Checkpoints saved since the process started, and when last (ms since the epoch). */
  readonly checkpointsSaved: number;
  readonly lastCheckpointAt?: number;
}

export type ToHarness =
  | { type: 'ready'; url: string }
  | { type: 'fault'; kind: FaultKind }
  | { type: 'appends'; outstanding: number }
  | { type: 'faults-stopped' }
  | { type: 'consumer-killed' }
  | ({ type: 'status' } & ConsumerStatus);

/** How a kill was timed: at once, or the moment DynamoDB has applied the next append (before the store, the service or the HTTP reply hear of it). */
export type KillMoment = 'now' | 'after-append';

/** One kill -9 of the runtime, as the harness saw it. */
export interface RuntimeKill {
  readonly moment: KillMoment;
  /** Appends sent to DynamoDB and not yet answered, as the process last told (at a kill 'now'). */
  readonly appendsOutstanding: number;
  /** When the process was seen gone (ms since the epoch). */
  readonly at: number;
  /** Milliseconds from the kill until the next process answered. */
  readonly restartMs: number;
}

export interface ChaosRuntime {
  /** Base URL of the API: the same port across restarts. */
  readonly url: string;
  readonly endpoint: string;
  readonly tableName: string;
  issueToken(player: string): string;
  /** Faults injected so far by every process, by kind. */
  readonly faults: Record<FaultKind, number>;
  /** Stops the faults (in this process and in every one started after), for the end checks. */
  stopFaults(): Promise<void>;
  /** Kills the stream consumer between reading and checkpointing, in the process, and starts it again (LocalNotifications.crash). */
  killConsumer(): Promise<void>;
  /**
   * SIGKILL to the runtime process, at once or right after its next append, then the next
   * process on the same port; resolves once it answers. `killed` is called the moment the
   * process is seen gone (the HTTP requests under way then are the ones the kill dropped).
   */
  killRuntime(moment: KillMoment, killed?: () => void): Promise<RuntimeKill>;
  /** The stream consumer's state (undefined while no process runs). */
  status(): Promise<ConsumerStatus | undefined>;
  /** Processes that ended without being killed or stopped (a crash): each is a problem. */
  readonly unexpectedExits: string[];
  stop(): Promise<void>;
}

export interface ChaosRuntimeOptions {
  readonly dynamoEndpoint: string;
  readonly tableName: string;
  readonly faultRate: number;
  readonly seed: number;
  readonly warp: number;
  readonly clockOrigin: number;
  /** Lines the runtime writes to its stderr (its stream consumer's warnings). */
  readonly log?: (line: string) => void;
}

const CHILD = join(import.meta.dirname, 'runtime-child.ts');
const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The child's code as one ES module, built once per run: started through tsx, each restart spent
 * most of its time compiling the runtime's sources again (8-12 s a restart on a busy machine).
 * The packages stay outside it, loaded from node_modules (so it lives under node_modules/.cache).
 */
async function bundleChild(): Promise<{ file: string; remove(): void }> {
  const dir = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'fieldpost-chaos-'));
  const file = join(dir, 'runtime-child.mjs');
  await build({
    entryPoints: [CHILD],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: file,
    logLevel: 'error',
  });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startChaosRuntime(opts: ChaosRuntimeOptions): Promise<ChaosRuntime> {
  mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  const bundle = await bundleChild();
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldpost-chaos-'));
  const port = await freePort();
  const jwtSecret = randomBytes(32).toString('hex');
  const faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  const unexpectedExits: string[] = [];
  let faultRate = opts.faultRate;
  let starts = 0;

  interface Running {
    readonly child: ChildProcess;
    readonly exited: Promise<void>;
    appendsOutstanding: number;
    /** The next message of this type resolves its waiter. */
    readonly waiting: Map<ToHarness['type'], (m: ToHarness | undefined) => void>;
    /** Set when the harness killed or stopped it: any other exit is a crash. */
    expected: boolean;
  }
  let current: Running | undefined;

  const spawnOne = (): Promise<Running> =>
    new Promise((ready, fail) => {
      const config: ChildConfig = {
        port,
        dataDir,
        dynamoEndpoint: opts.dynamoEndpoint,
        tableName: opts.tableName,
        jwtSecret,
        faultRate,
        // Seeded: the n-th process injects the same faults for the same seed (where the timing is the same).
        faultSeed: (opts.seed ^ 0x9e3779b9) + starts++ * 7919,
        warp: opts.warp,
        clockOrigin: opts.clockOrigin,
      };
      const child = spawn(process.execPath, [bundle.file, JSON.stringify(config)], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      let stderr = '';
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (d: string) => {
        stderr = (stderr + d).slice(-2000);
        for (const line of d.split('\n')) if (line.trim()) opts.log?.(line);
      });
      const r: Running = {
        child,
        exited: new Promise((done) => child.once('exit', () => done())),
        appendsOutstanding: 0,
        waiting: new Map(),
        expected: false,
      };
      let isReady = false;
      child.on('message', (m: ToHarness) => {
        if (m.type === 'fault') faults[m.kind]++;
        else if (m.type === 'appends') r.appendsOutstanding = m.outstanding;
        else if (m.type === 'ready') {
          isReady = true;
          ready(r);
        }
        const w = r.waiting.get(m.type);
        if (w) {
          r.waiting.delete(m.type);
          w(m);
        }
      });
      child.once('exit', (code, signal) => {
        if (!isReady) fail(new Error(`the chaos runtime exited before it answered (${signal ?? code}): ${stderr.slice(-800)}`));
        else if (!r.expected) unexpectedExits.push(`the runtime exited by itself (${signal ?? code}): ${stderr.slice(-300)}`);
        // A reply that will never come: whoever waits for one goes on (the process is gone, and its consumer with it).
        for (const w of r.waiting.values()) w(undefined);
        r.waiting.clear();
      });
    });
  /** Starts the next process; the port of the last one may take a moment to be free. */
  const startOne = async (): Promise<Running> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return (current = await spawnOne());
      } catch (e) {
        if (attempt >= 5) throw e;
        await new Promise((done) => setTimeout(done, 200 * attempt));
      }
    }
  };
  const ask = (r: Running, m: ToChild, reply: ToHarness['type']): Promise<ToHarness | undefined> =>
    new Promise((done) => {
      r.waiting.set(reply, done);
      r.child.send(m);
    });

  await startOne();
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    endpoint: opts.dynamoEndpoint,
    tableName: opts.tableName,
    issueToken: (player) => signLocalJwt(jwtSecret, player, { nowSeconds: Math.floor(Date.now() / 1000), ttlSeconds: 24 * 3600 }),
    faults,
    unexpectedExits,
    async stopFaults() {
      faultRate = 0;
      if (current) await ask(current, { type: 'stop-faults' }, 'faults-stopped');
    },
    async killConsumer() {
      if (current) await ask(current, { type: 'kill-consumer' }, 'consumer-killed');
    },
    async killRuntime(asked, killed) {
      const r = current!;
      r.expected = true;
      let moment = asked;
      let appendsOutstanding = 0;
      const now = () => {
        moment = 'now';
        appendsOutstanding = r.appendsOutstanding;
        r.child.kill('SIGKILL');
      };
      if (asked === 'now') now();
      else {
        r.child.send({ type: 'die-after-append' });
        // No append comes (the load is over): killed at once after a while.
        const late = setTimeout(now, 3_000);
        void r.exited.then(() => clearTimeout(late));
      }
      await r.exited;
      const at = Date.now();
      current = undefined;
      killed?.();
      await startOne();
      return { moment, appendsOutstanding, at, restartMs: Date.now() - at };
    },
    async status() {
      if (!current) return undefined;
      const m = await ask(current, { type: 'status' }, 'status');
      if (m?.type !== 'status') return undefined;
      const { type: _, ...s } = m;
      return s;
    },
    async stop() {
      const r = current;
      current = undefined;
      if (r) {
        r.expected = true;
        r.child.send({ type: 'stop' });
        const late = setTimeout(() => r.child.kill('SIGKILL'), 15_000);
        await r.exited;
        clearTimeout(late);
      }
      rmSync(dataDir, { recursive: true, force: true });
      bundle.remove();
    },
  };
}
