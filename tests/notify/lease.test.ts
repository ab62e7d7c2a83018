import { beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { NotifyJob } from '../../functions/notify/decide.js';
import { deliveryIdOf, Notifier } from '../../functions/notify/notifier.js';
import { DynamoDeliveryLog, DynamoNoticeLedger, DynamoSettingsStore } from '../../functions/notify/stores.js';
import { freshTable } from '../support/dynamo.js';
import { NOW, turnNotice } from './fixtures.js';

/**
 * A worker that dies while a channel is 'sending' (a crash of the local runtime, a Lambda that
 * times out) leaves the claim behind. Once its lease has run out the channel is delivered by
 * whoever handles the notice next, or settled as sent when the dead worker's delivery was
 * recorded; a notice handled while the claim is still young is looked at again when the lease ends.
 */
let client: DynamoDBClient;
let tableName: string;
const LEASE = 90;
const at = (s: number) => new Date(Date.parse(NOW) + s * 1000).toISOString();

beforeAll(async () => {
  ({ client, tableName } = await freshTable('notify-lease'));
  await new DynamoSettingsStore(client, tableName).put('bob', {
    webhooks: [{ id: 'wh1', url: 'http://127.0.0.1:9/hook', secret: 'whsec_bob_0123456789abcdef', format: 'json' }],
  });
});

function harness() {
  let clock = 0;
  const posts: string[] = [];
  const queued: { job: NotifyJob; delaySeconds: number }[] = [];
  const ledger = new DynamoNoticeLedger(client, tableName, LEASE);
  const deliveries = new DynamoDeliveryLog(client, tableName);
  const notifier = new Notifier({
    settings: new DynamoSettingsStore(client, tableName),
    ledger,
    deliveries,
    mailer: { send: async () => undefined },
    webhooks: {
      post: async (_url, headers) => {
        posts.push(String(headers['webhook-id']));
        return { status: 200 };
      },
    },
    clock: { now: () => at(clock) },
    appUrl: 'http://localhost:3000',
    retry: { mode: 'inline', attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    queue: { enqueue: async (jobs, delaySeconds = 0) => void queued.push(...jobs.map((job) => ({ job, delaySeconds }))) },
    sleep: async () => undefined,
    allowPrivateWebhooks: true,
  });
  /** A worker that claimed the channel at `t` and died before settling it. */
  const deadWorker = async (key: string, t: number) => {
    await ledger.open(key, 'bob', ['wh1'], at(t));
    expect(await ledger.claim(key, 'wh1', at(t))).toBe(true);
  };
  return { notifier, ledger, deliveries, posts, queued, deadWorker, setClock: (s: number) => (clock = s) };
}

describe('a channel left sending by a worker that died', () => {
  it('is looked at again when its lease ends, then delivered once', async () => {
    const h = harness();
    const notice = turnNotice('lease');
    await h.deadWorker(notice.key, 0);
    // The runtime restarts 10 s later and handles the notice again: the claim may still be alive.
    h.setClock(10);
    expect(await h.notifier.handle({ notice })).toEqual([{ channel: 'wh1', outcome: 'duplicate' }]);
    expect(h.posts).toEqual([]);
    expect(h.queued).toHaveLength(1);
    expect(h.queued[0]!.job).toMatchObject({ channel: 'wh1', attempt: 1 });
    expect(h.queued[0]!.delaySeconds).toBeGreaterThanOrEqual(LEASE - 10);
    expect(h.queued[0]!.delaySeconds).toBeLessThanOrEqual(LEASE - 10 + 2);
    // When it runs, the lease is over: the channel is taken over and delivered.
    h.setClock(10 + h.queued[0]!.delaySeconds);
    expect(await h.notifier.handle(h.queued[0]!.job)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect(h.posts).toEqual([deliveryIdOf(notice.key, 'bob', 'wh1')]);
    expect(await h.ledger.inspect(notice.key, 'wh1')).toMatchObject({ state: 'sent' });
    // Nothing more: the notice handled again is a duplicate and schedules nothing.
    expect(await h.notifier.handle({ notice })).toEqual([{ channel: 'wh1', outcome: 'duplicate' }]);
    expect(await h.notifier.handle(h.queued[0]!.job)).toEqual([{ channel: 'wh1', outcome: 'duplicate' }]);
    expect(h.queued).toHaveLength(1);
    expect(h.posts).toHaveLength(1);
  });

  it('a job retried after the lease (SQS redelivery) delivers it', async () => {
    const h = harness();
    const notice = turnNotice('lease');
    await h.deadWorker(notice.key, 0);
    h.setClock(LEASE + 5);
    expect(await h.notifier.handle({ notice })).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect(h.posts).toHaveLength(1);
    expect(await h.ledger.inspect(notice.key, 'wh1')).toMatchObject({ state: 'sent' });
  });

  it('is settled as sent, not sent again, when the dead worker recorded its delivery', async () => {
    const h = harness();
    const notice = turnNotice('lease');
    await h.deadWorker(notice.key, 0);
    await h.deliveries.record('bob', {
      deliveryId: deliveryIdOf(notice.key, 'bob', 'wh1'),
      noticeKey: notice.key,
      kind: 'turn',
      gameId: notice.gameId,
      channel: 'webhook',
      channelId: 'wh1',
      target: 'http://127.0.0.1:9/…',
      attempt: 1,
      ok: true,
      status: 200,
      outcome: 'sent',
      at: at(1),
    });
    h.setClock(LEASE + 5);
    expect(await h.notifier.handle({ notice })).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect(h.posts).toEqual([]);
    expect(await h.ledger.inspect(notice.key, 'wh1')).toMatchObject({ state: 'sent' });
  });
});
