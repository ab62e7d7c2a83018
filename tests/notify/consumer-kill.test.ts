import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime, type RuntimeContext } from '../../functions/local/runtime.js';
import { startLocalNotifications, type CheckpointStore, type LocalNotifications, type ShardCheckpoint } from '../../functions/local/stream-poller.js';
import { noticeKey } from '../../functions/notify/decide.js';
import { deliveryIdOf } from '../../functions/notify/notifier.js';
import { DynamoSettingsStore } from '../../functions/notify/stores.js';
import type { WebhookTransport } from '../../functions/notify/webhook.js';
import { cid, engines, playTurns } from '../projections/support.js';
import { waitFor, waitUntil } from '../support/wait.js';

/**
 * Issue 18 "Faults survived": the stream consumer killed between reading and checkpointing. The
 * local notify queue lives in memory, so the notices' position waits until the jobs of the records
 * handed over have finished, and a restart reads again what they had not. The read models keep a
 * position of their own, saved as soon as they are written (as in AWS, where the notify jobs are
 * SQS messages): a notice still in flight at the kill no longer sends the restarted projector back
 * over everything written since. Here one player's webhook hangs until the kill, holding the
 * notices' position at the start; the restarted projector reads only what came after its own.
 */
const tableName = `consumer-kill-${Date.now().toString(36)}`;
let rt: LocalRuntime;
let ctx: RuntimeContext | undefined;

const saved = new Map<string, Map<string, ShardCheckpoint>>();
const checkpoints: CheckpointStore = {
  load: async (key) => new Map(saved.get(key) ?? []),
  save: async (key, shards) => void saved.set(key, new Map(shards)),
};

/** Accepted posts: the delivery id of each, and whose webhook it went to. */
const accepted: { readonly id: string; readonly bob: boolean }[] = [];
/** Bob's posts wait on this until it is opened (a receiver that has not answered yet). */
let openBob: () => void = () => {};
const bobWaits = new Promise<void>((r) => (openBob = r));
const transport: WebhookTransport = {
  post: async (url, headers) => {
    const bob = url.endsWith('/bob');
    if (bob) await bobWaits;
    accepted.push({ id: String(headers['webhook-id']), bob });
    return { status: 200 };
  },
};

const start = (context: RuntimeContext): Promise<LocalNotifications> =>
  startLocalNotifications(context, {
    pollIntervalMs: 50,
    env: {},
    webhooks: transport,
    checkpoints,
    retry: { mode: 'inline', attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });

beforeAll(async () => {
  rt = await startLocalRuntime({
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName,
    memory: true,
    engines,
    jwtSecret: 'consumer-kill-secret-0123456789',
    extensions: [
      async (c) => {
        ctx = c;
        return { name: 'no consumer yet', stop: async () => {} };
      },
    ],
  });
  const settings = new DynamoSettingsStore(rt.client, tableName);
  for (const p of ['alice', 'bob'])
    await settings.put(p, { webhooks: [{ id: `wh-${p}`, url: `http://127.0.0.1:9/${p}`, secret: `secret-of-${p}-0123456789`, format: 'json' }] });
}, 60_000);

afterAll(async () => {
  openBob();
  await rt?.stop();
});

describe('a stream consumer killed while notices are in flight', () => {
  it('restarts its projector from the projector’s own checkpoint, and still sends every notice once', async () => {
    const svc = rt.deps.service;
    let first: LocalNotifications | undefined = await start(ctx!);
    try {
      const versions = new Map<string, number>();
      /** Bob's "game started" notice of each game: it must arrive, once. */
      const bobStarted: string[] = [];
      for (let i = 0; i < 6; i++) {
        const { gameId } = await svc.create('alice', { engine: 'dice-race', options: { target: 10_000 }, seat: 'p1', commandId: cid('create') });
        const joined = await svc.join('bob', gameId, { commandId: cid('join') });
        bobStarted.push(deliveryIdOf(noticeKey(gameId, 'started', ['p2'], joined.version), 'bob', 'wh-bob'));
        await playTurns(svc, gameId, 4);
        versions.set(gameId, (await svc.view(null, gameId)).summary.version);
      }
      const projected = async () => {
        for (const [gameId, version] of versions) if ((await first!.readModels.getSummary(gameId))?.version !== version) return undefined;
        return true;
      };
      await waitFor('the read models of every game', projected);
      // Alice's notices went out (the notices' consumer starts after the projector's first pass: a moment later); bob's
      // first is still in flight, so the notices' position has not moved past it.
      await waitUntil("alice's notices", async () => accepted.filter((a) => !a.bob).length > 6);
      await first.poller.nextPass();
      const history = first.poller.delivered;
      expect(history).toBeGreaterThan(50);
      expect(accepted.filter((a) => a.bob)).toEqual([]);

      // Killed between reading and checkpointing; bob's receiver answers while the kill waits for the jobs under way.
      const killed = first.crash();
      openBob();
      await killed;
      first = undefined;

      const second = await start(ctx!);
      try {
        // Counted at the end of its first pass: later passes read the notifier's own writes (ledger, deliveries) as well.
        await second.poller.nextPass();
        const readAgain = second.poller.delivered;
        await second.settle();
        // The projector read again only what came after its own checkpoint; the notices' consumer read again from before bob's
        // first notice, and handed over again the batches whose jobs had not finished (bob's).
        expect(readAgain).toBeLessThan(history / 4);
        expect(second.noticePoller.delivered).toBeGreaterThan(0);
        for (const [gameId, version] of versions) expect((await second.readModels.getSummary(gameId))?.version).toBe(version);
        // Each notice accepted once across the kill, bob's included.
        const ids = accepted.map((a) => a.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(bobStarted.filter((id) => ids.includes(id))).toEqual(bobStarted);
      } finally {
        await second.stop();
      }
    } finally {
      await first?.stop();
    }
  }, 90_000);
});
