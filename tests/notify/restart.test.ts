import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { startLocalNotifications, type LocalNotifications } from '../../functions/local/stream-poller.js';
import { deliveryIdOf } from '../../functions/notify/notifier.js';
import { DynamoNoticeLedger, DynamoSettingsStore } from '../../functions/notify/stores.js';
import type { WebhookTransport } from '../../functions/notify/webhook.js';
import { cid, engines, playTurns } from '../projections/support.js';
import { waitFor } from '../support/wait.js';

/**
 * `npm start` stopped (or crashed) and started again on the same data: the stream poller
 * resumes from its checkpoint instead of reading the whole history again, so read models and
 * notices catch up at once; records written while it was down are processed, nothing is
 * notified twice, and a webhook whose delivery the crash interrupted is delivered after the
 * restart instead of staying 'sending' forever.
 */
interface Post {
  readonly run: number;
  readonly delivery: string;
  readonly player: string;
}

let dataDir: string;
const tableName = `restart-${Date.now().toString(36)}`;
const posts: Post[] = [];
/** What the receiver does with a POST in run `n` ('hang': never answers, as if the process died mid-request). */
let behaviour: (run: number, player: string) => 'ok' | 'hang' = () => 'ok';

const transport = (run: number): WebhookTransport => ({
  post: async (url, headers) => {
    const player = url.slice(url.lastIndexOf('/') + 1);
    if (behaviour(run, player) === 'hang') return new Promise(() => {});
    posts.push({ run, delivery: String(headers['webhook-id']), player });
    return { status: 200 };
  },
});

interface Running {
  rt: LocalRuntime;
  notif: LocalNotifications;
}

async function start(run: number, leaseSeconds = 90): Promise<Running> {
  let notif: LocalNotifications | undefined;
  const rt = await startLocalRuntime({
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName,
    dataDir,
    engines,
    jwtSecret: 'restart-test-secret-0123456789',
    extensions: [
      async (ctx) =>
        (notif = await startLocalNotifications(ctx, {
          pollIntervalMs: 50,
          env: {},
          leaseSeconds,
          webhooks: transport(run),
          retry: { mode: 'inline', attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
        })),
    ],
  });
  return { rt, notif: notif! };
}

const svcOf = (r: Running) => r.rt.deps.service;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fieldpost-restart-'));
  const r = await start(0);
  const settings = new DynamoSettingsStore(r.rt.client, tableName);
  for (const p of ['alice', 'bob'])
    await settings.put(p, { webhooks: [{ id: `wh-${p}`, url: `http://127.0.0.1:9/${p}`, secret: `secret-of-${p}-0123456789`, format: 'json' }] });
  await r.rt.stop();
}, 60_000);

afterAll(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A dice race between alice and bob with `moves` rolls played. */
async function game(r: Running, moves: number): Promise<string> {
  const { gameId } = await svcOf(r).create('alice', { engine: 'dice-race', options: { target: 10_000 }, seat: 'p1', commandId: cid('create') });
  await svcOf(r).join('bob', gameId, { commandId: cid('join') });
  await playTurns(svcOf(r), gameId, moves);
  return gameId;
}

const repeated = () => {
  const seen = new Map<string, number>();
  for (const p of posts) seen.set(p.delivery, (seen.get(p.delivery) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1);
};

describe('a restart of the local runtime', () => {
  it('resumes the stream from its checkpoint: catches up at once, loses nothing, notifies nothing twice', async () => {
    const first = await start(1);
    const games: string[] = [];
    for (let i = 0; i < 6; i++) games.push(await game(first, 4));
    await first.notif.settle();
    const history = first.notif.poller.delivered;
    expect(history).toBeGreaterThan(50);
    const before = posts.length;
    expect(before).toBeGreaterThan(0);
    await first.rt.stop();

    // While it is down, a move is made (another process writes to the same table).
    const offline = await startLocalRuntime({ dynamoEndpoint: inject('dynamoEndpoint'), tableName, memory: true, engines, jwtSecret: 'x'.repeat(32) });
    const moved = await svcOf({ rt: offline } as Running).submit('alice', games[0]!, { command: { type: 'Roll' }, commandId: cid('offline') });
    await offline.stop();

    const second = await start(2);
    const t0 = Date.now();
    // Bob's "your turn" for the move made while the runtime was down arrives.
    await waitFor('the notice of the offline move', async () => (posts.some((p) => p.run === 2 && p.player === 'bob') ? true : undefined));
    const caughtUp = Date.now() - t0;
    await second.notif.settle();
    const summary = await second.notif.readModels.getSummary(games[0]!);
    expect(summary?.version).toBe(moved.version);
    // Only what came after the checkpoint was read again, not the whole history.
    expect(second.notif.poller.delivered).toBeLessThan(history / 4);
    expect(caughtUp).toBeLessThan(2000);
    expect(posts.filter((p) => p.run === 2)).toHaveLength(1);
    expect(repeated()).toEqual([]);
    await second.rt.stop();
  }, 90_000);

  it('delivers a webhook the crash left "sending" once its lease runs out, exactly once', async () => {
    behaviour = (run, player) => (run === 3 && player === 'bob' ? 'hang' : 'ok');
    const third = await start(3, 1);
    const gameId = await game(third, 0);
    const ledger = new DynamoNoticeLedger(third.rt.client, tableName, 1);
    // Bob's "game started" webhook is in flight, and alice rolls: bob's "your turn" waits behind it (his notices of a game go one at a time, in order); the process dies.
    const started = `${gameId}#started#p2#${(await svcOf(third).view(null, gameId)).summary.version}`;
    const rolled = await svcOf(third).submit('alice', gameId, { command: { type: 'Roll' }, commandId: cid('roll') });
    const key = `${gameId}#turn#p2#${rolled.version}`;
    await waitFor('the webhook to be in flight', async () => ((await ledger.inspect(started, 'wh-bob'))?.state === 'sending' ? true : undefined));
    await third.rt.stop();
    expect(posts.filter((p) => p.run === 3 && p.player === 'bob')).toEqual([]);

    const fourth = await start(4, 1);
    await waitFor('the interrupted webhook', async () => (posts.some((p) => p.run === 4 && p.player === 'bob') ? true : undefined));
    await fourth.notif.settle();
    // Bob's "your turn" (and his "game started", also cut off by the crash) arrive once each.
    const turn = deliveryIdOf(key, 'bob', 'wh-bob');
    expect(posts.filter((p) => p.delivery === turn).map((p) => p.run)).toEqual([4]);
    expect(posts.filter((p) => p.player === 'bob' && p.run === 4)).toHaveLength(2);
    expect(await ledger.inspect(key, 'wh-bob')).toMatchObject({ state: 'sent' });
    expect(repeated()).toEqual([]);
    await fourth.rt.stop();
  }, 90_000);
});
