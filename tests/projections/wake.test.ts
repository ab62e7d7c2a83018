import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime, type RuntimeContext } from '../../functions/local/runtime.js';
import { startLocalNotifications, StreamPoller, type LocalNotifications } from '../../functions/local/stream-poller.js';
import { freshTable } from '../support/dynamo.js';
import { waitFor, waitUntil } from '../support/wait.js';
import { cid, engines } from './support.js';

/**
 * The local stream consumers poll DynamoDB Local on a timer that backs off while the stream is
 * quiet, and the runtime's own writes wake them: a move reaches the read models at once, and an
 * idle runtime costs DynamoDB Local a pass a second per consumer instead of four.
 */
describe('local stream consumers: woken by writes, backing off while quiet', () => {
  let rt: LocalRuntime;
  let notifications: LocalNotifications | undefined;
  let context: RuntimeContext | undefined;
  beforeAll(async () => {
    rt = await startLocalRuntime({
      dynamoEndpoint: inject('dynamoEndpoint'),
      tableName: `wake-${Date.now().toString(36)}`,
      memory: true,
      engines,
      jwtSecret: 'wake-secret-0123456789-0123456789',
      // A timer far longer than the test waits: only a wake gets the move projected in time.
      extensions: [
        async (ctx) => {
          context = ctx;
          return (notifications = await startLocalNotifications(ctx, { pollIntervalMs: 60_000, env: {} }));
        },
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await rt?.stop();
  });

  it("projects a move the runtime wrote without waiting for the consumers' timer", async () => {
    const n = notifications!;
    await waitUntil('the first passes', async () => n.poller.passes > 0 && n.noticePoller.passes > 0);
    const started = Date.now();
    const { gameId } = await rt.deps.service.create('alice', { engine: 'dice-race', options: {}, seat: 'p1', commandId: cid('wake') });
    await waitFor('the new game in the read models', async () => (await n.readModels.getSummary(gameId)) ?? undefined, 15_000);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(n.poller.delivered).toBeGreaterThan(0);
    expect(n.noticePoller.delivered).toBeGreaterThan(0);
  });

  it('starts the notices’ consumer once the projector’s first pass is over (the read models first, after a restart)', async () => {
    const again = await startLocalNotifications(context!, { pollIntervalMs: 60_000, env: {} });
    try {
      expect(again.poller.passes).toBe(1);
      expect(again.noticePoller.passes).toBe(0);
      await again.poller.nextPass();
      expect(again.noticePoller.passes).toBe(1);
    } finally {
      await again.stop();
    }
  });

  it('passes less and less often while the stream is quiet, and at once when woken', async () => {
    const { client, tableName, endpoint } = await freshTable('wake');
    const poller = new StreamPoller({ client, endpoint, tableName, intervalMs: 20, idleIntervalMs: 400, onRecords: async () => ({ batchItemFailures: [] }) });
    poller.start();
    try {
      await new Promise((r) => setTimeout(r, 1500));
      // Every 20 ms that is more than 50 passes; doubling from 20 ms to 400 ms, about 9.
      expect(poller.passes).toBeLessThan(15);
      const before = poller.passes;
      poller.wake();
      await waitUntil('a pass after the wake', async () => poller.passes > before, 300);
    } finally {
      await poller.stop();
      client.destroy();
    }
  });
});
