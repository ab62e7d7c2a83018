import { beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Notice, NotifyJob } from '../../functions/notify/decide.js';
import type { OutgoingMail } from '../../functions/notify/mailer.js';
import { Notifier, WEBHOOK_RETRY_SCHEDULE_SECONDS } from '../../functions/notify/notifier.js';
import { newWebhookSecret, verifySignature } from '../../functions/notify/signature.js';
import { DynamoDeliveryLog, DynamoNoticeLedger, DynamoSettingsStore, DynamoWebhookLanes } from '../../functions/notify/stores.js';
import { freshTable } from '../support/dynamo.js';
import { turnNotice, verifiedEmail } from './fixtures.js';

/**
 * A webhook receiver that is down for a whole day, on a simulated clock: the notifier runs as
 * it does in AWS (one attempt per queue message, each retry a delayed message, SQS's 15-minute
 * delay limit and all), on DynamoDB Local, with the deployed retry schedule. The queue is a
 * discrete-event simulation: the earliest message runs next and the clock jumps to its time.
 */
let client: DynamoDBClient;
let tableName: string;
const T0 = Date.parse('2026-11-21T00:00:00.000Z');
const HOUR = 3600_000;

beforeAll(async () => {
  ({ client, tableName } = await freshTable('notify-outage'));
});

interface Post {
  at: number;
  headers: Record<string, string>;
  body: string;
  status: number;
}

function world(player: string, receiver: (at: number) => number) {
  let now = T0;
  let seq = 0;
  const agenda: { due: number; seq: number; job: NotifyJob }[] = [];
  const posts: Post[] = [];
  /** The mails telling the owner a webhook was switched off (turn notices are mailed too, and left out). */
  const mails: OutgoingMail[] = [];
  const settings = new DynamoSettingsStore(client, tableName);
  const secret = newWebhookSecret();
  const notifier = new Notifier({
    settings,
    ledger: new DynamoNoticeLedger(client, tableName),
    deliveries: new DynamoDeliveryLog(client, tableName),
    lanes: new DynamoWebhookLanes(client, tableName),
    disableWebhook: (p, id, reason, at) => settings.disableWebhook(p, id, reason, at),
    mailer: { send: async (m) => void (m.subject.includes('switched off') && mails.push(m)) },
    webhooks: {
      post: async (_url, headers, body) => {
        const status = receiver(now);
        posts.push({ at: now, headers: { ...headers }, body, status });
        return { status };
      },
    },
    clock: { now: () => new Date(now).toISOString() },
    appUrl: 'http://localhost:3000',
    retry: { mode: 'requeue', attempts: 1, baseDelayMs: 0, maxDelayMs: 0, schedule: WEBHOOK_RETRY_SCHEDULE_SECONDS.map((s) => s * 1000) },
    queue: { enqueue: async (jobs, delay = 0) => void jobs.forEach((job) => agenda.push({ due: now + delay * 1000, seq: seq++, job })) },
    allowPrivateWebhooks: true,
  });
  return {
    secret,
    posts,
    mails,
    settings,
    setup: () =>
      settings.put(player, { ...verifiedEmail(`${player}@example.org`), webhooks: [{ id: 'wh1', url: 'http://127.0.0.1:9/h', secret, format: 'json' }] }),
    /** A notice the projector queues at `at` (the stream's order within each game). */
    notice: (at: number, n: Notice) => agenda.push({ due: at, seq: seq++, job: { notice: n } }),
    /** Runs the queue until it is empty; returns how many messages ran. */
    async run(): Promise<number> {
      let ran = 0;
      while (agenda.length) {
        agenda.sort((a, b) => a.due - b.due || a.seq - b.seq);
        const next = agenda.shift()!;
        now = Math.max(now, next.due);
        await notifier.handle(next.job);
        ran++;
      }
      return ran;
    },
  };
}

/** Notices of two games for one player, a few per game, spread over the outage. */
function noticesOf(player: string, games: readonly string[], perGame: number): { at: number; n: Notice }[] {
  return games.flatMap((g, gi) =>
    Array.from({ length: perGame }, (_, i) => {
      const version = 3 + 2 * i;
      return { at: T0 + (gi * 0.5 + i * 3) * HOUR, n: turnNotice(g, { key: `${g}-${player}#turn#p2#${version}`, gameId: `${g}-${player}`, player, version }) };
    }),
  );
}

describe('a webhook receiver down for 24 hours (simulated clock)', () => {
  it('gets every notice exactly once when it is back, in each game order, each with the webhook-id of its first attempt', async () => {
    const w = world('dora', (at) => (at < T0 + 24 * HOUR ? 503 : 200));
    await w.setup();
    const sent = noticesOf('dora', ['ga', 'gb'], 2);
    for (const { at, n } of sent) w.notice(at, n);
    await w.run();

    const ok = w.posts.filter((p) => p.status === 200);
    const payloads = ok.map((p) => JSON.parse(p.body) as { id: string; game: { id: string; version: number } });
    // Exactly once each: four notices, four accepted deliveries, four distinct ids.
    expect(ok).toHaveLength(sent.length);
    expect(new Set(ok.map((p) => p.headers['webhook-id'])).size).toBe(sent.length);
    for (const p of ok) expect(p.at).toBeGreaterThanOrEqual(T0 + 24 * HOUR);
    // In each game's order.
    for (const g of ['ga-dora', 'gb-dora']) {
      const versions = payloads.filter((p) => p.game.id === g).map((p) => p.game.version);
      expect(versions).toEqual([3, 5]);
    }
    // Every attempt of one notice carried the same webhook-id, and each is signed for its own timestamp.
    for (const p of ok) {
      const tries = w.posts.filter((x) => x.body === p.body);
      expect(new Set(tries.map((x) => x.headers['webhook-id']))).toEqual(new Set([p.headers['webhook-id']]));
      const headers = { id: p.headers['webhook-id'], timestamp: p.headers['webhook-timestamp'], signature: p.headers['webhook-signature'] };
      expect(verifySignature({ headers, body: p.body, secret: w.secret, nowSeconds: Number(headers.timestamp) }).ok).toBe(true);
    }
    // Later notices of a game waited behind the first instead of hammering the receiver on their own.
    for (const p of payloads.filter((x) => x.game.version > 3)) expect(w.posts.filter((x) => x.headers['webhook-id'] === p.id)).toHaveLength(1);
    // Nothing was switched off, and the owner can read the schedule of each failed attempt.
    expect((await w.settings.get('dora'))!.webhooks[0]!.disabled).toBeUndefined();
    expect(w.mails).toEqual([]);
    const log = await new DynamoDeliveryLog(client, tableName).list('dora', 100);
    const retrying = log.filter((d) => d.outcome === 'retrying');
    expect(retrying.length).toBeGreaterThan(0);
    for (const d of retrying) expect(Date.parse(d.nextAttemptAt!)).toBeGreaterThan(Date.parse(d.at));
  });

  it('lasts about three days, so a receiver down for longer is switched off and its owner mailed', () => {
    const total = WEBHOOK_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(2.5 * 24 * 3600);
    expect(total).toBeLessThanOrEqual(3 * 24 * 3600);
  });

  it('a receiver that never comes back: switched off after the last attempt of the schedule, owner told by mail, nothing more sent', async () => {
    const w = world('emil', () => 500);
    await w.setup();
    const [first] = noticesOf('emil', ['gc'], 1);
    w.notice(first!.at, first!.n);
    await w.run();
    expect(w.posts).toHaveLength(WEBHOOK_RETRY_SCHEDULE_SECONDS.length + 1);
    const hook = (await w.settings.get('emil'))!.webhooks[0]!;
    expect(hook.disabled?.reason).toMatch(/every attempt failed \(11 over the retry schedule\)/);
    expect(w.mails).toHaveLength(1);
    expect(w.mails[0]).toMatchObject({ to: 'emil@example.org', subject: 'Fieldpost: webhook wh1 switched off' });
    // A later notice goes to no switched-off webhook.
    w.notice(Date.parse(hook.disabled!.at) + HOUR, turnNotice('gc', { player: 'emil' }));
    await w.run();
    expect(w.posts).toHaveLength(WEBHOOK_RETRY_SCHEDULE_SECONDS.length + 1);
  });

  it('a receiver that answers 410 Gone: switched off at once and its owner told by mail', async () => {
    const w = world('fran', () => 410);
    await w.setup();
    const [first] = noticesOf('fran', ['gd'], 1);
    w.notice(first!.at, first!.n);
    await w.run();
    expect(w.posts).toHaveLength(1);
    expect((await w.settings.get('fran'))!.webhooks[0]!.disabled?.reason).toBe('the receiver answered 410 Gone');
    expect(w.mails.map((m) => m.subject)).toEqual(['Fieldpost: webhook wh1 switched off']);
    expect(w.mails[0]!.text).toContain('"enabled": true');
  });
});
