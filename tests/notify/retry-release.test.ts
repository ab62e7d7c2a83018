import { beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Notice, NotifyJob } from '../../functions/notify/decide.js';
import { Notifier, type ChannelResult } from '../../functions/notify/notifier.js';
import { DynamoDeliveryLog, DynamoNoticeLedger, DynamoSettingsStore } from '../../functions/notify/stores.js';
import { freshTable } from '../support/dynamo.js';
import { NOW, turnNotice } from './fixtures.js';

/**
 * SQS delivers at least once: when a notifier invocation fails on infrastructure (the queue
 * refuses the delayed retry, the table throttles), the message comes back and must be able
 * to carry the delivery on. A claim given back must be one that message can take again.
 */
let client: DynamoDBClient;
let tableName: string;

beforeAll(async () => {
  ({ client, tableName } = await freshTable('notify-release'));
  await new DynamoSettingsStore(client, tableName).put('bob', {
    webhooks: [{ id: 'wh1', url: 'http://127.0.0.1:9/hook', secret: 'whsec_bob_0123456789abcdef', format: 'json' }],
  });
});

const notice = (): Notice => turnNotice('rr');

/** Requeue mode (AWS); the webhook answers the statuses given, the queue refuses the sends marked false. */
function harness(statuses: number[], queueWorks: boolean[]) {
  const posts: number[] = [];
  const queued: NotifyJob[] = [];
  const notifier = new Notifier({
    settings: new DynamoSettingsStore(client, tableName),
    ledger: new DynamoNoticeLedger(client, tableName),
    deliveries: new DynamoDeliveryLog(client, tableName),
    mailer: { send: async () => undefined },
    webhooks: {
      post: async () => {
        const status = statuses.shift() ?? 200;
        posts.push(status);
        return { status };
      },
    },
    clock: { now: () => NOW },
    appUrl: 'http://localhost:3000',
    retry: { mode: 'requeue', attempts: 5, baseDelayMs: 30_000, maxDelayMs: 900_000 },
    queue: {
      enqueue: async (jobs) => {
        if (queueWorks.shift() === false) throw new Error('SQS unavailable');
        queued.push(...jobs);
      },
    },
    allowPrivateWebhooks: true,
  });
  return { notifier, posts, queued };
}

/** Handles a job the way SQS would: redelivered until an invocation does not throw. */
async function untilHandled(h: ReturnType<typeof harness>, job: NotifyJob): Promise<ChannelResult[]> {
  for (let i = 0; i < 3; i++) {
    try {
      return await h.notifier.handle(job);
    } catch {
      // the message becomes visible again
    }
  }
  throw new Error('never handled');
}

describe('a notifier invocation that fails on infrastructure', () => {
  it('first attempt: the queue refuses the delayed retry; the redelivered notice carries the delivery on', async () => {
    const h = harness([500, 500, 200], [false]);
    const job = { notice: notice() };
    expect(await untilHandled(h, job)).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    expect(h.queued).toHaveLength(1);
    expect(await h.notifier.handle(h.queued[0]!)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect(h.posts).toEqual([500, 500, 200]);
  });

  it('a retry attempt: the queue refuses the next retry; the redelivered retry message can run its attempt again', async () => {
    const h = harness([500, 500, 500, 200], [true, false]);
    const job = { notice: notice() };
    expect(await h.notifier.handle(job)).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    const retry2 = h.queued[0]!;
    expect(retry2).toMatchObject({ channel: 'wh1', attempt: 2 });
    // Attempt 2 fails at the receiver, and scheduling attempt 3 fails at the queue: SQS brings retry2 back.
    expect(await untilHandled(h, retry2)).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    const retry3 = h.queued[1]!;
    expect(retry3).toMatchObject({ channel: 'wh1', attempt: 3 });
    expect(await h.notifier.handle(retry3)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect(h.posts).toEqual([500, 500, 500, 200]);
    // Nothing runs twice once settled.
    expect(await h.notifier.handle(retry2)).toEqual([{ channel: 'wh1', outcome: 'duplicate' }]);
  });
});
