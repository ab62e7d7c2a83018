import { beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { createNotifierHandler } from '../../functions/handlers/notifier.js';
import type { Notice, NotifyJob } from '../../functions/notify/decide.js';
import type { Mailer, OutgoingMail } from '../../functions/notify/mailer.js';
import { Notifier, type RetryPolicy } from '../../functions/notify/notifier.js';
import type { NotifyQueue } from '../../functions/notify/queue.js';
import { newWebhookSecret, verifySignature } from '../../functions/notify/signature.js';
import { DynamoDeliveryLog, DynamoNoticeLedger, DynamoSettingsStore } from '../../functions/notify/stores.js';
import type { WebhookTransport } from '../../functions/notify/webhook.js';
import { turnIsStale } from '../../functions/notify/wiring.js';
import { freshTable } from '../support/dynamo.js';
import { NOW, turnNotice, verifiedEmail } from './fixtures.js';

const SECRET = newWebhookSecret();
let client: DynamoDBClient;
let tableName: string;

beforeAll(async () => {
  ({ client, tableName } = await freshTable('notify'));
});

let n = 0;
const notice = (over: Partial<Notice> = {}): Notice => turnNotice('g', over);

function harness(opts: { statuses?: number[]; retry?: Partial<RetryPolicy>; player?: string } = {}) {
  const mails: OutgoingMail[] = [];
  const posts: { url: string; headers: Record<string, string>; body: string }[] = [];
  const statuses = [...(opts.statuses ?? [])];
  const waits: number[] = [];
  const queued: { jobs: readonly NotifyJob[]; delay: number }[] = [];
  const mailer: Mailer = { send: async (m) => void mails.push(m) };
  const webhooks: WebhookTransport = {
    post: async (url, headers, body) => {
      posts.push({ url, headers: { ...headers }, body });
      return { status: statuses.shift() ?? 200 };
    },
  };
  const queue: NotifyQueue = { enqueue: async (jobs, delay = 0) => void queued.push({ jobs, delay }) };
  const retry: RetryPolicy = { attempts: 3, baseDelayMs: 100, maxDelayMs: 10_000, mode: 'inline', ...opts.retry };
  const deliveries = new DynamoDeliveryLog(client, tableName);
  const notifier = new Notifier({
    settings: new DynamoSettingsStore(client, tableName),
    ledger: new DynamoNoticeLedger(client, tableName),
    deliveries,
    mailer,
    webhooks,
    clock: { now: () => NOW },
    appUrl: 'http://localhost:3000',
    retry,
    queue,
    sleep: async (ms) => void waits.push(ms),
    allowPrivateWebhooks: true,
  });
  return { notifier, mails, posts, waits, queued, deliveries };
}

async function settingsFor(player: string) {
  await new DynamoSettingsStore(client, tableName).put(player, {
    ...verifiedEmail(`${player}@example.org`),
    webhooks: [{ id: 'wh1', url: 'http://127.0.0.1:9/hook', secret: SECRET, format: 'json' }],
  });
}

describe('Notifier on DynamoDB Local', () => {
  it('sends one mail and one signed webhook, and nothing again for the same notice', async () => {
    await settingsFor('bob');
    const h = harness();
    const job = { notice: notice() };
    expect(await h.notifier.handle(job)).toEqual([
      { channel: 'email', outcome: 'sent' },
      { channel: 'wh1', outcome: 'sent' },
    ]);
    expect(h.mails).toHaveLength(1);
    expect(h.mails[0]!.to).toBe('bob@example.org');
    expect(h.posts).toHaveLength(1);
    const post = h.posts[0]!;
    const signed = { id: post.headers['webhook-id'], timestamp: post.headers['webhook-timestamp'], signature: post.headers['webhook-signature'] };
    expect(verifySignature({ headers: signed, body: post.body, secret: SECRET, nowSeconds: Date.parse(NOW) / 1000 }).ok).toBe(true);
    expect(post.headers['webhook-id']).toMatch(/^dlv_[0-9a-f]{32}$/);
    // A replayed stream record or a duplicate queue message: the ledger refuses it.
    expect(await h.notifier.handle(job)).toEqual([
      { channel: 'email', outcome: 'duplicate' },
      { channel: 'wh1', outcome: 'duplicate' },
    ]);
    expect(await harness().notifier.handle(job)).toEqual([
      { channel: 'email', outcome: 'duplicate' },
      { channel: 'wh1', outcome: 'duplicate' },
    ]);
    expect(h.mails).toHaveLength(1);
    expect(h.posts).toHaveLength(1);
  });

  it('retries a failing webhook with exponential backoff and delivers on the third try, with the same delivery id', async () => {
    await settingsFor('bob');
    const h = harness({ statuses: [500, 503, 200] });
    const res = await h.notifier.handle({ notice: notice() });
    expect(res).toContainEqual({ channel: 'wh1', outcome: 'sent' });
    expect(h.posts).toHaveLength(3);
    expect(h.waits).toEqual([100, 200]);
    expect(new Set(h.posts.map((p) => p.headers['webhook-id'])).size).toBe(1);
    const log = (await h.deliveries.list('bob', 50)).filter((d) => d.channel === 'webhook' && d.deliveryId === h.posts[0]!.headers['webhook-id']);
    expect(log.map((d) => [d.attempt, d.ok, d.status, d.outcome]).sort()).toEqual([
      [1, false, 500, 'retrying'],
      [2, false, 503, 'retrying'],
      [3, true, 200, 'sent'],
    ]);
  });

  it('gives up after the last attempt, records the failure for the owner, and does not resend on replay', async () => {
    await settingsFor('bob');
    const h = harness({ statuses: [500, 500, 500, 500] });
    const job = { notice: notice() };
    expect(await h.notifier.handle(job)).toContainEqual({ channel: 'wh1', outcome: 'failed' });
    const failed = (await h.deliveries.list('bob', 100)).filter((d) => d.noticeKey === job.notice.key && d.outcome === 'failed');
    expect(failed).toEqual([
      expect.objectContaining({ attempt: 3, ok: false, status: 500, error: 'receiver answered HTTP 500', target: 'http://127.0.0.1:9/hook' }),
    ]);
    await h.notifier.handle(job);
    expect(h.posts).toHaveLength(3);
  });

  it('in requeue mode (AWS) puts the next attempt back on the queue with a growing delay', async () => {
    await settingsFor('bob');
    const h = harness({ statuses: [500, 502, 200], retry: { mode: 'requeue', attempts: 4, baseDelayMs: 30_000, maxDelayMs: 900_000 } });
    const job = { notice: notice() };
    expect(await h.notifier.handle(job)).toContainEqual({ channel: 'wh1', outcome: 'retrying' });
    expect(h.queued).toEqual([{ jobs: [{ notice: job.notice, channel: 'wh1', attempt: 2 }], delay: 30 }]);
    // The original message again (SQS at-least-once): no second attempt 1.
    expect(await h.notifier.handle(job)).toContainEqual({ channel: 'wh1', outcome: 'duplicate' });
    expect(await h.notifier.handle(h.queued[0]!.jobs[0]!)).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    expect(h.queued[1]).toEqual({ jobs: [{ notice: job.notice, channel: 'wh1', attempt: 3 }], delay: 60 });
    // The retry message delivered twice: only one attempt 2 ran.
    expect(await h.notifier.handle(h.queued[0]!.jobs[0]!)).toEqual([{ channel: 'wh1', outcome: 'duplicate' }]);
    expect(await h.notifier.handle(h.queued[1]!.jobs[0]!)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect(h.posts).toHaveLength(3);
    expect(h.waits).toEqual([]);
  });

  it('a channel added after a notice went out does not get that old notice on a replay', async () => {
    await new DynamoSettingsStore(client, tableName).put('carol', { ...verifiedEmail('carol@example.org'), webhooks: [] });
    const h = harness();
    const job = { notice: notice({ player: 'carol' }) };
    await h.notifier.handle(job);
    await new DynamoSettingsStore(client, tableName).put('carol', {
      ...verifiedEmail('carol@example.org'),
      webhooks: [{ id: 'wh9', url: 'http://127.0.0.1:9/new', secret: SECRET, format: 'slack' }],
    });
    expect(await h.notifier.handle(job)).toEqual([{ channel: 'email', outcome: 'duplicate' }]);
    expect(h.posts).toHaveLength(0);
  });

  it('refuses plain-http webhooks when not local', async () => {
    await settingsFor('dora');
    const h = harness();
    const strict = new Notifier({ ...(h.notifier as any).deps, allowPrivateWebhooks: false });
    expect(await strict.handle({ notice: notice({ player: 'dora' }) })).toContainEqual({ channel: 'wh1', outcome: 'failed' });
    expect(h.posts).toHaveLength(0);
  });
});

describe('stale and unaddressed notices', () => {
  it('a "your turn" the game has moved past is not sent', async () => {
    const summary = (pendingSince: Record<string, { at: string; version: number }>, version = 9) => ({
      getSummary: async () => ({ version, pendingSince }) as any,
    });
    const n5 = notice({ version: 5 });
    expect(await turnIsStale(summary({ p2: { at: NOW, version: 5 } }))(n5)).toBe(false);
    expect(await turnIsStale(summary({ p2: { at: NOW, version: 7 } }))(n5)).toBe(true);
    expect(await turnIsStale(summary({ p1: { at: NOW, version: 8 } }))(n5)).toBe(true);
    expect(await turnIsStale({ getSummary: async () => undefined })(n5)).toBe(false);
    expect(await turnIsStale(summary({}, 4))(n5)).toBe(false);

    await settingsFor('erin');
    const h = harness();
    const strict = new Notifier({ ...(h.notifier as any).deps, isStale: async () => true });
    expect(await strict.handle({ notice: notice({ player: 'erin' }) })).toEqual([
      { channel: 'email', outcome: 'stale' },
      { channel: 'wh1', outcome: 'stale' },
    ]);
    expect(h.mails).toHaveLength(0);
  });

  it('a notice for a player without channels is not sent later to channels added since', async () => {
    const h = harness();
    const job = { notice: notice({ player: 'frank' }) };
    expect(await h.notifier.handle(job)).toEqual([]);
    await settingsFor('frank');
    expect(await h.notifier.handle(job)).toEqual([]);
    expect(h.mails).toHaveLength(0);
    expect(h.posts).toHaveLength(0);
  });
});

describe('dedupe ledger', () => {
  const at = (s: number) => new Date(Date.parse(NOW) + s * 1000).toISOString();
  it('lets one worker claim a channel, and a later one take over only a claim left sending by a dead worker', async () => {
    const ledger = new DynamoNoticeLedger(client, tableName, 90);
    const key = `ledger-${++n}`;
    expect(await ledger.open(key, 'bob', ['email', 'wh1'], at(0))).toEqual(['email', 'wh1']);
    expect(await ledger.open(key, 'bob', ['email', 'wh1', 'wh2'], at(1))).toEqual(['email', 'wh1']);
    expect(await ledger.claim(key, 'email', at(0))).toBe(true);
    expect(await ledger.claim(key, 'email', at(30))).toBe(false);
    expect(await ledger.claim(key, 'email', at(100))).toBe(true);
    await ledger.settle(key, 'email', 'sent', at(101));
    expect(await ledger.claim(key, 'email', at(10_000))).toBe(false);
  });
  it('lets exactly one retry message run each attempt, and a stuck retry be taken over', async () => {
    const ledger = new DynamoNoticeLedger(client, tableName, 90);
    const key = `ledger-${++n}`;
    expect(await ledger.claim(key, 'wh1', at(0))).toBe(true);
    await ledger.settle(key, 'wh1', { retryAttempt: 2 }, at(1));
    expect(await ledger.claimRetry(key, 'wh1', 3, at(40))).toBe(false);
    expect(await ledger.claimRetry(key, 'wh1', 2, at(40))).toBe(true);
    expect(await ledger.claimRetry(key, 'wh1', 2, at(50))).toBe(false);
    expect(await ledger.claimRetry(key, 'wh1', 2, at(200))).toBe(true);
    // An infrastructure error gives the claim back so the redelivered retry message (attempt 2) can take it.
    await ledger.release(key, 'wh1', 2);
    expect(await ledger.claim(key, 'wh1', at(201))).toBe(false);
    expect(await ledger.claimRetry(key, 'wh1', 2, at(201))).toBe(true);
    // A first attempt's claim given back is gone, so the redelivered notice can claim it afresh.
    const first = `ledger-${++n}`;
    expect(await ledger.claim(first, 'wh1', at(0))).toBe(true);
    await ledger.release(first, 'wh1', 1);
    expect(await ledger.claim(first, 'wh1', at(1))).toBe(true);
  });
});

describe('notifier SQS handler', () => {
  it('reports unparseable and failing messages in batchItemFailures and handles the rest', async () => {
    const seen: string[] = [];
    const handler = createNotifierHandler(
      {
        handle: async (job) => {
          if (job.notice.player === 'boom') throw new Error('table unavailable');
          seen.push(job.notice.player);
          return [];
        },
      },
      () => {},
    );
    const msg = (id: string, body: string) => ({ messageId: id, body, attributes: {} }) as SQSEvent['Records'][number];
    const r = await handler({
      Records: [
        msg('1', JSON.stringify({ notice: notice() })),
        msg('2', '{not json'),
        msg('3', JSON.stringify({ notice: { key: 'x' } })),
        msg('4', JSON.stringify({ notice: notice({ player: 'boom' }) })),
      ],
    });
    expect(r.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['2', '3', '4']);
    expect(seen).toEqual(['bob']);
  });
});
