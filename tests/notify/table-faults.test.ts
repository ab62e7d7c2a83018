import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Notice, NotifyJob } from '../../functions/notify/decide.js';
import { Notifier } from '../../functions/notify/notifier.js';
import { DynamoDeliveryLog, DynamoNoticeLedger, DynamoSettingsStore, DynamoWebhookLanes, type WebhookLanes } from '../../functions/notify/stores.js';
import { freshTable } from '../support/dynamo.js';
import { NOW, turnNotice } from './fixtures.js';

/**
 * Issue 18, found by the chaos run: faults at the notifier's own table calls must not lose a
 * notice nor block its game's lane. A write whose reply is lost is retried by the SDK and then
 * meets its own condition; a job that throws is run again (SQS redelivery) and must find its
 * claim as it left it; a hold put in a lane after the notice settled must not stay there.
 */
let endpoint: string;
let tableName: string;
let plain: DynamoDBClient;

beforeAll(async () => {
  ({ client: plain, tableName, endpoint } = await freshTable('notify-faults'));
});

/** A client whose writes matching `lose` reach the table but whose reply is lost (once each), as a dropped connection does. */
function lossyClient(lose: (input: string) => boolean): { client: DynamoDBClient; lost: () => number } {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const done = new Set<string>();
  let lost = 0;
  client.middlewareStack.add(
    (next) => async (args) => {
      const input = JSON.stringify(args.input);
      const r = await next(args);
      if (lose(input) && !done.has(input)) {
        done.add(input);
        lost++;
        throw Object.assign(new Error('socket hang up'), { name: 'Error', code: 'ECONNRESET', $metadata: {} });
      }
      return r;
    },
    { step: 'deserialize', name: 'lostReply' },
  );
  return { client, lost: () => lost };
}

const notice = (gameId: string, version: number, player: string): Notice => ({
  ...turnNotice(gameId, { gameId, player, version }),
  key: `${gameId}#turn#p2#${version}`,
});

/** A notifier in requeue mode on `client`; the receiver answers the statuses given (then 200); queued jobs are collected. */
async function harness(
  player: string,
  client: DynamoDBClient,
  statuses: number[] = [],
  lanes?: WebhookLanes,
  local: { now?: () => string; resumeRetriesFrom?: string; isStale?: () => Promise<boolean> } = {},
  ledger = new DynamoNoticeLedger(client, tableName),
) {
  await new DynamoSettingsStore(plain, tableName).put(player, {
    webhooks: [{ id: 'wh1', url: 'http://127.0.0.1:9/hook', secret: 'whsec_faults_0123456789abcdef', format: 'json' }],
  });
  const posts: { version: number; id: string; status: number }[] = [];
  const queued: NotifyJob[] = [];
  const notifier = new Notifier({
    settings: new DynamoSettingsStore(client, tableName),
    ledger,
    deliveries: new DynamoDeliveryLog(client, tableName),
    lanes: lanes ?? new DynamoWebhookLanes(client, tableName),
    mailer: { send: async () => undefined },
    webhooks: {
      post: async (_url, headers, body) => {
        const status = statuses.shift() ?? 200;
        posts.push({ version: (JSON.parse(body) as { game: { version: number } }).game.version, id: String(headers['webhook-id']), status });
        return { status };
      },
    },
    clock: { now: local.now ?? (() => NOW) },
    ...(local.resumeRetriesFrom !== undefined ? { resumeRetriesFrom: local.resumeRetriesFrom } : {}),
    ...(local.isStale ? { isStale: local.isStale } : {}),
    appUrl: 'http://localhost:3000',
    retry: { mode: 'requeue', attempts: 5, baseDelayMs: 30_000, maxDelayMs: 900_000 },
    queue: { enqueue: async (jobs) => void queued.push(...jobs) },
    allowPrivateWebhooks: true,
  });
  return { notifier, posts, queued };
}

describe("faults at the notifier's table calls", () => {
  it('a claim whose reply was lost is carried on at once, not after its lease', async () => {
    const lossy = lossyClient((input) => input.includes('CHANNEL#wh1') && input.includes('"sending"'));
    const h = await harness('erin', lossy.client);
    expect(await h.notifier.handle({ notice: notice('claim', 5, 'erin') })).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect(lossy.lost()).toBe(1);
    expect(h.posts.map((p) => p.status)).toEqual([200]);
  });

  it('a notice handed on in its lane whose run fails before the receiver has it is delivered when the job runs again', async () => {
    const lanes = new DynamoWebhookLanes(plain, tableName);
    let failWaitBehind = 0;
    const flaky: WebhookLanes = {
      waitBehind: async (...a) => {
        if (failWaitBehind-- > 0) throw Object.assign(new Error('Transaction is ongoing for the item'), { name: 'TransactionConflictException' });
        return lanes.waitBehind(...a);
      },
      hold: (...a) => lanes.hold(...a),
      done: (...a) => lanes.done(...a),
    };
    const h = await harness('fred', plain, [503], flaky);
    // v10 fails once and is retried; v11 waits behind it in the lane.
    expect(await h.notifier.handle({ notice: notice('handed', 10, 'fred') })).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    expect(await h.notifier.handle({ notice: notice('handed', 11, 'fred') })).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    const retry10 = h.queued.shift()!;
    expect(await h.notifier.handle(retry10)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    // Sent: v11 is handed on, a job of its channel at attempt 1. Its first run throws before posting.
    const handed = h.queued.shift()!;
    expect(handed).toMatchObject({ channel: 'wh1', attempt: 1, notice: { version: 11 } });
    failWaitBehind = 1;
    await expect(h.notifier.handle(handed)).rejects.toThrow('Transaction is ongoing');
    // Before: its claim was removed, so the job's next run found nothing to take and v11 was lost.
    expect(await h.notifier.handle(handed)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect(h.posts.map((p) => [p.version, p.status])).toEqual([
      [10, 503],
      [10, 200],
      [11, 200],
    ]);
  });

  it('a lost reply on taking a waiting job out of its lane still hands it on', async () => {
    const lossy = lossyClient((input) => input.includes('REMOVE waiting'));
    const lanes = new DynamoWebhookLanes(lossy.client, tableName);
    const h = await harness('gina', plain, [503], lanes);
    expect(await h.notifier.handle({ notice: notice('takeout', 20, 'gina') })).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    expect(await h.notifier.handle({ notice: notice('takeout', 21, 'gina') })).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    expect(await h.notifier.handle(h.queued.shift()!)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect(lossy.lost()).toBe(1);
    // Before: the SDK's retry of the take-out failed its condition, and v21 stayed parked for good.
    const handed = h.queued.shift()!;
    expect(handed).toMatchObject({ channel: 'wh1', notice: { version: 21 } });
    expect(await h.notifier.handle(handed)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
  });

  it('a hold left in a lane by a notice already settled is released when its re-check finds it settled', async () => {
    const h = await harness('hugo', plain);
    const lanes = new DynamoWebhookLanes(plain, tableName);
    expect(await h.notifier.handle({ notice: notice('hold', 30, 'hugo') })).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    // A worker that saw v30 'sending' held its lane after v30's own release (the race), and queued a re-check.
    await lanes.hold('hugo', 'wh1', 'hold', 30, NOW);
    expect(await h.notifier.handle({ notice: notice('hold', 31, 'hugo') })).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    expect(h.queued).toEqual([]);
    // The re-check finds v30 sent: the hold goes, and v31 is handed on.
    expect(await h.notifier.handle({ notice: notice('hold', 30, 'hugo'), channel: 'wh1', attempt: 1 })).toEqual([{ channel: 'wh1', outcome: 'duplicate' }]);
    const handed = h.queued.shift()!;
    expect(handed).toMatchObject({ channel: 'wh1', notice: { version: 31 } });
    expect(await h.notifier.handle(handed)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect(h.posts.map((p) => p.version)).toEqual([30, 31]);
  });

  it('a local notifier started again resumes a retry the run before had queued in memory, when it is due', async () => {
    let now = NOW;
    const later = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();
    const before = await harness('ivan', plain, [503]);
    const n = notice('resume', 50, 'ivan');
    expect(await before.notifier.handle({ notice: n })).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    // That run is killed: its queued retry (attempt 2, due in 30 s) is gone with it.
    expect(before.queued).toMatchObject([{ channel: 'wh1', attempt: 2 }]);
    now = later(10_000);
    const after = await harness('ivan', plain, [], undefined, { now: () => now, resumeRetriesFrom: now });
    // The notice is read again from the stream: its retry is queued again, due when it was.
    expect(await after.notifier.handle({ notice: n })).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    expect(after.queued).toMatchObject([{ channel: 'wh1', attempt: 2, dueAt: later(30_000) }]);
    now = later(30_000);
    expect(await after.notifier.handle(after.queued[0]!)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect([...before.posts, ...after.posts].map((p) => p.status)).toEqual([503, 200]);
    // Read once more: nothing left to resume.
    expect(await after.notifier.handle({ notice: n })).toEqual([{ channel: 'wh1', outcome: 'duplicate' }]);
  });

  it('a runtime killed between settling a notice and releasing its lane: a restart that reads it again as a stale turn hands the next one on', async () => {
    const lanes = new DynamoWebhookLanes(plain, tableName);
    let killed = false;
    const dying: WebhookLanes = {
      waitBehind: (...a) => lanes.waitBehind(...a),
      hold: (...a) => lanes.hold(...a),
      done: async (...a) => {
        if (killed) throw new Error('the process is gone (kill -9)');
        return lanes.done(...a);
      },
    };
    const before = await harness('jill', plain, [503], dying);
    expect(await before.notifier.handle({ notice: notice('killed', 60, 'jill') })).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    expect(await before.notifier.handle({ notice: notice('killed', 61, 'jill') })).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    // v60's retry goes through and its claim is settled 'sent'; the process dies before it releases the lane.
    killed = true;
    await expect(before.notifier.handle(before.queued.shift()!)).rejects.toThrow('kill -9');
    expect(before.queued).toEqual([]);
    // The next runtime reads v60 again from the stream: a later move made it a stale turn notice.
    const now = new Date(Date.parse(NOW) + 5_000).toISOString();
    const after = await harness('jill', plain, [], lanes, { now: () => now, resumeRetriesFrom: now, isStale: async () => true });
    expect(await after.notifier.handle({ notice: notice('killed', 60, 'jill') })).toEqual([{ channel: 'wh1', outcome: 'stale' }]);
    // Before: nothing released v60's place in the lane, and v61 (and every later notice of the game) waited for good.
    const handed = after.queued.shift()!;
    expect(handed).toMatchObject({ channel: 'wh1', notice: { version: 61 } });
    expect(await after.notifier.handle(handed)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect([...before.posts, ...after.posts].map((p) => [p.version, p.status])).toEqual([
      [60, 503],
      [60, 200],
      [61, 200],
    ]);
  });

  it('a runtime killed between a failed attempt and its retry: a restart that reads it again as a stale turn takes it over, and the lane moves on', async () => {
    /** The ledger of a process that dies: once killed, nothing it would still write reaches the table. */
    class DyingLedger extends DynamoNoticeLedger {
      killed = false;
      override async release(...a: Parameters<DynamoNoticeLedger['release']>): Promise<void> {
        if (!this.killed) await super.release(...a);
      }
    }
    const ledger = new DyingLedger(plain, tableName);
    const lanes = new DynamoWebhookLanes(plain, tableName);
    const dying: WebhookLanes = {
      waitBehind: (...a) => lanes.waitBehind(...a),
      hold: async (...a) => {
        if (ledger.killed) throw new Error('the process is gone (kill -9)');
        return lanes.hold(...a);
      },
      done: (...a) => lanes.done(...a),
    };
    const before = await harness('kate', plain, [503, 503], dying, {}, ledger);
    expect(await before.notifier.handle({ notice: notice('sending', 70, 'kate') })).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    expect(await before.notifier.handle({ notice: notice('sending', 71, 'kate') })).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    // v70's second attempt is refused and recorded; the process dies before its retry is scheduled: the claim stays 'sending'.
    ledger.killed = true;
    await expect(before.notifier.handle(before.queued.shift()!)).rejects.toThrow('kill -9');
    expect((await ledger.inspect(notice('sending', 70, 'kate').key, 'wh1'))?.state).toBe('sending');
    const now = new Date(Date.parse(NOW) + 5_000).toISOString();
    const after = await harness('kate', plain, [], lanes, { now: () => now, resumeRetriesFrom: now, isStale: async () => true });
    expect(await after.notifier.handle({ notice: notice('sending', 70, 'kate') })).toEqual([{ channel: 'wh1', outcome: 'stale' }]);
    // Before: the stale read left v70 'sending' for good, and v71 waited behind it for good.
    const takeover = after.queued.shift()!;
    expect(takeover).toMatchObject({ channel: 'wh1', notice: { version: 70 } });
    expect(await after.notifier.handle(takeover)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    const handed = after.queued.shift()!;
    expect(handed).toMatchObject({ channel: 'wh1', notice: { version: 71 } });
    expect(await after.notifier.handle(handed)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect([...before.posts, ...after.posts].map((p) => [p.version, p.status])).toEqual([
      [70, 503],
      [70, 503],
      [70, 200],
      [71, 200],
    ]);
  });
  it('a turn notice whose failed run released its claim after holding its lane: read again as stale, it lets the game.ended behind it go', async () => {
    /** A ledger whose write of a scheduled retry fails (a fault the SDK's retries did not outlast), once. */
    class FlakyLedger extends DynamoNoticeLedger {
      failRetry = 1;
      override async settle(...a: Parameters<DynamoNoticeLedger['settle']>): Promise<void> {
        if (typeof a[2] === 'object' && this.failRetry-- > 0)
          throw Object.assign(new Error('Internal server error'), { name: 'InternalServerError', $fault: 'server', $metadata: { httpStatusCode: 500 } });
        return super.settle(...a);
      }
    }
    const ledger = new FlakyLedger(plain, tableName);
    const before = await harness('liam', plain, [503], undefined, {}, ledger);
    const turn = notice('released', 80, 'liam');
    const ended: Notice = {
      ...notice('released', 81, 'liam'),
      key: 'released#ended#p2#81',
      kind: 'ended',
      asked: [],
      outcome: { winners: ['p1'], reason: 'checkmate', result: 'lost' },
    };
    // v80 is refused and its lane held; writing its retry fails, so its claim is released and the job throws (to run again).
    await expect(before.notifier.handle({ notice: turn })).rejects.toThrow('Internal server error');
    expect(await ledger.inspect(turn.key, 'wh1')).toBeUndefined();
    // The game ends meanwhile: its game.ended waits behind v80 in the lane.
    expect(await before.notifier.handle({ notice: ended })).toEqual([{ channel: 'wh1', outcome: 'retrying' }]);
    expect(before.queued).toEqual([]);
    // v80's job runs again (or the runtime was killed and reads it again): the game has moved on, so it is a stale turn.
    const now = new Date(Date.parse(NOW) + 5_000).toISOString();
    const after = await harness('liam', plain, [], undefined, { now: () => now, resumeRetriesFrom: now, isStale: async () => true });
    expect(await after.notifier.handle({ notice: turn })).toEqual([{ channel: 'wh1', outcome: 'stale' }]);
    // Before: nothing released v80's place in the lane, and the game.ended behind it was never sent.
    const handed = after.queued.shift()!;
    expect(handed).toMatchObject({ channel: 'wh1', notice: { version: 81, kind: 'ended' } });
    expect(await after.notifier.handle(handed)).toEqual([{ channel: 'wh1', outcome: 'sent' }]);
    expect([...before.posts, ...after.posts].map((p) => [p.version, p.status])).toEqual([
      [80, 503],
      [81, 200],
    ]);
  });
});
