import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EngineRegistry, EventEnvelope, GameSummary } from '../../domain/kernel/index.js';
import { join } from 'node:path';
import { fileCheckpoints, startLocalNotifications, type CheckpointStore, type LocalNotifications } from '../../functions/local/stream-poller.js';
import type { RuntimeExtension } from '../../functions/local/runtime.js';
import { decideNotices, webhookEventType } from '../../functions/notify/decide.js';
import { WEBHOOK_RETRY_SCHEDULE_SECONDS } from '../../functions/notify/notifier.js';
import { summariesFromEvents } from '../../functions/projections/rebuild.js';
import type { Clock } from '../../functions/ports.js';

/**
 * The notices half of the chaos run (issue 18): every player has a webhook on a receiver in this
 * process, which is down (503) for 24 simulated hours in the middle of the run. The notifier runs
 * as in AWS (one attempt per queue message, the deployed retry schedule of about three days) on a
 * warped clock: one real second is `warp` simulated seconds, and the in-process queue's delays
 * shrink by the same factor, so a day of downtime passes in seconds. At the end every notice must
 * have been delivered exactly once, in each game's order.
 */

/**
 * A clock that runs `warp` times faster than the wall clock, from `realStart` (ms since the epoch;
 * now by default). The runtime's processes, each started again after a kill, share the harness's start.
 */
export function warpedClock(warp: number, realStart = Date.now()): Clock & { simulatedMs(): number; readonly realStart: number } {
  return {
    realStart,
    now: () => new Date(realStart + (Date.now() - realStart) * warp).toISOString(),
    simulatedMs: () => (Date.now() - realStart) * warp,
  };
}

interface Post {
  readonly player: string;
  readonly id: string;
  readonly type: string;
  readonly gameId: string;
  readonly version: number;
  readonly status: number;
  /** When it arrived (ms since the epoch). */
  readonly at: number;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly posts: Post[];
  /** Answers 503 from now for `simulatedMs` of the warped clock, and until it has refused at least one delivery (so the outage is met, however slow the machine). */
  goDown(simulatedMs: number): void;
  /** Whether it was down, and is back. */
  readonly outage: { started: boolean; over: boolean };
  stop(): Promise<void>;
}

export async function startReceiver(clock: ReturnType<typeof warpedClock>): Promise<WebhookReceiver> {
  const posts: Post[] = [];
  let downUntil = -1;
  let refused = 0;
  const outage = { started: false, over: false };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const down = outage.started && !outage.over && (clock.simulatedMs() < downUntil || refused === 0);
      if (down) refused++;
      if (outage.started && !down) outage.over = true;
      const p = JSON.parse(body) as { type: string; player: string; game: { id: string; version: number } };
      const status = down ? 503 : 200;
      posts.push({ player: p.player, id: String(req.headers['webhook-id']), type: p.type, gameId: p.game.id, version: p.game.version, status, at: Date.now() });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    outage,
    goDown(simulatedMs) {
      outage.started = true;
      downUntil = clock.simulatedMs() + simulatedMs;
    },
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The stream consumer of a chaos run, which the run can kill and start again. */
export interface ChaosConsumer {
  readonly current: LocalNotifications;
  /**
   * Kills the consumer between reading and checkpointing (LocalNotifications.crash: the records
   * handed over since the last checkpoint are not saved, scheduled notify jobs are dropped) and
   * starts a new one, which reads on from the last checkpoint.
   */
  kill(): Promise<void>;
  /** How many times a consumer saved its stream checkpoints, and when it last did (ms since the epoch). */
  readonly checkpointsSaved: { count: number; lastAt?: number };
}

/**
 * The local projector + notifier on the warped clock, retrying webhooks as in AWS (requeue mode,
 * the deployed schedule), with its stream checkpoints in the data folder's file as `npm start`
 * keeps them, so a consumer started again (in this process, or in the next after a kill -9)
 * resumes where the last one saved. `onStart` gets the consumer (to kill it).
 */
export function warpedNotifications(clock: Clock, warp: number, onStart: (c: ChaosConsumer) => void): RuntimeExtension {
  return async (ctx) => {
    if (!ctx.dataDir) throw new Error('the chaos run keeps its stream checkpoints in a data folder');
    const checkpointsSaved: { count: number; lastAt?: number } = { count: 0 };
    const files = checkpointFiles(ctx.dataDir);
    const checkpoints: CheckpointStore = {
      load: (key) => files.load(key),
      save: async (key, shards) => {
        await files.save(key, shards);
        checkpointsSaved.count++;
        checkpointsSaved.lastAt = Date.now();
      },
    };
    const start = () =>
      startLocalNotifications(ctx, {
        clock,
        delayScaleMs: 1000 / warp,
        retry: { mode: 'requeue', attempts: 1, baseDelayMs: 0, maxDelayMs: 0, schedule: WEBHOOK_RETRY_SCHEDULE_SECONDS.map((s) => s * 1000) },
        // A claim left 'sending' (a lost reply of the ledger, say) is taken over after 15 real seconds:
        // shorter, and a send slowed by a busy machine was taken over while still in flight (sent twice).
        leaseSeconds: 15 * warp,
        // The receiver lives in this process, on a machine the run keeps busy: a reply it sent may wait
        // past the deployed 5 s before this process reads it, and the notice then goes out again (the
        // same webhook-id, as a timed-out delivery rightly does). Not a fault this run injects.
        env: { ...process.env, WEBHOOK_TIMEOUT_MS: '30000' },
        checkpoints,
      });
    let current = await start();
    onStart({
      get current() {
        return current;
      },
      async kill() {
        await current.crash();
        current = await start();
      },
      checkpointsSaved,
    });
    return { name: 'chaos stream consumer', stop: () => current.stop(), handle: (method, path) => current.handle(method, path) };
  };
}

/**
 * Stream checkpoints in the data folder, a file per key (the stream ARN and the consumer's name): a
 * file of fileCheckpoints holds one key, and the projector and the notices' consumer each save
 * theirs under its own. Sharing one file, each save replaced the other consumer's checkpoint, and
 * the consumer whose key was not in the file when it started again (after a kill) read the whole
 * stream from its beginning.
 */
export function checkpointFiles(dir: string): CheckpointStore {
  const fileOf = (key: string) => fileCheckpoints(join(dir, `stream-checkpoint-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.json`));
  return { load: (key) => fileOf(key).load(key), save: (key, shards) => fileOf(key).save(key, shards) };
}

export interface NoticeCheck {
  readonly ok: boolean;
  /** Notices decided from the events for the players (every player has a webhook). */
  readonly decided: number;
  /** Of them, those that must arrive: all but turn notices overtaken by a later move (the notifier drops those as stale). */
  readonly required: number;
  readonly delivered: number;
  readonly refusedDuringOutage: number;
  /** webhook-ids accepted more than once, but for the repeats below. */
  readonly duplicates: string[];
  /**
   * webhook-ids accepted again after the runtime was killed (SIGKILL) between the first acceptance
   * and the repeat: the killed process may have been between the receiver's 2xx and its record of
   * the delivery, so it cannot know the notice went out. A receiver de-duplicates these by
   * webhook-id, as Standard Webhooks asks; they are not counted as delivered twice.
   */
  readonly redeliveredAfterKill: string[];
  /** Required notices never accepted. */
  readonly missing: string[];
  /** Accepted notices that no change in the events calls for. */
  readonly unknown: string[];
  /** A player's notice of a game accepted after a later one of the same game. */
  readonly outOfOrder: string[];
  readonly problems: string[];
}

/** The notices the events call for, decided once from the final logs (a replay of every game: not redone on each look at the posts). */
export interface NoticeExpectations {
  readonly decided: ReadonlySet<string>;
  readonly required: ReadonlySet<string>;
}

const keyOf = (player: string, type: string, gameId: string, version: number) => `${player}|${type}|${gameId}|${version}`;

export function expectedNotices(logs: ReadonlyMap<string, readonly EventEnvelope[]>, engines: EngineRegistry): NoticeExpectations {
  const decided = new Set<string>();
  const required = new Set<string>();
  for (const [gameId, events] of logs) {
    const engine = engines.get(String((events[0]?.data as { engine?: unknown } | undefined)?.engine));
    if (!engine) continue;
    let old: GameSummary | undefined;
    const summaries = summariesFromEvents(engine, events);
    const last = summaries.at(-1)?.version;
    for (const s of summaries) {
      for (const n of decideNotices(old, s)) {
        const key = keyOf(n.player, webhookEventType(n.kind), gameId, n.version);
        decided.add(key);
        if (!((n.kind === 'turn' || n.kind === 'reminder') && n.version !== last)) required.add(key);
      }
      old = s;
    }
  }
  return { decided, required };
}

/**
 * Every notice delivered exactly once (one 2xx per webhook-id, but for a repeat that a runtime kill
 * at `kills` (ms since the epoch) fell before), each required one delivered, none unknown, and
 * each game's notices in order.
 */
export function checkNotices(posts: readonly Post[], { decided, required }: NoticeExpectations, kills: readonly number[] = []): NoticeCheck {
  const problems: string[] = [];
  const accepted = posts.filter((p) => p.status >= 200 && p.status < 300);
  const firstAt = new Map<string, number>();
  const twice = new Map<string, number>();
  const redeliveredAfterKill = new Set<string>();
  const okPosts: Post[] = [];
  for (const p of accepted) {
    const first = firstAt.get(p.id);
    if (first === undefined) {
      firstAt.set(p.id, p.at);
      okPosts.push(p);
    } else if (kills.some((k) => k >= first && k <= p.at)) redeliveredAfterKill.add(p.id);
    else twice.set(p.id, (twice.get(p.id) ?? 1) + 1);
  }
  if (twice.size) problems.push(`${twice.size} notice(s) delivered more than once: ${[...twice.keys()].slice(0, 3)}`);
  const got = new Set(okPosts.map((p) => keyOf(p.player, p.type, p.gameId, p.version)));
  const missing = [...required].filter((k) => !got.has(k));
  if (missing.length) problems.push(`${missing.length} notice(s) never delivered: ${missing.slice(0, 3).join(', ')}`);
  const unknown = [...got].filter((k) => !decided.has(k));
  if (unknown.length) problems.push(`${unknown.length} delivered notice(s) match no change in the events: ${unknown.slice(0, 3).join(', ')}`);
  const lastVersion = new Map<string, number>();
  const outOfOrder: string[] = [];
  for (const p of okPosts) {
    const lane = `${p.player}|${p.gameId}`;
    const before = lastVersion.get(lane) ?? -1;
    if (p.version < before) outOfOrder.push(`${lane}: version ${p.version} delivered after ${before}`);
    lastVersion.set(lane, Math.max(before, p.version));
  }
  problems.push(...outOfOrder);
  return {
    ok: problems.length === 0,
    decided: decided.size,
    required: required.size,
    delivered: okPosts.length,
    redeliveredAfterKill: [...redeliveredAfterKill],
    refusedDuringOutage: posts.filter((p) => p.status === 503).length,
    duplicates: [...twice.keys()],
    missing,
    unknown,
    outOfOrder,
    problems,
  };
}
