import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { systemClock, type Env } from '../environment.js';
import type { Clock } from '../ports.js';
import { ReadModelStore } from '../projections/read-model-store.js';
import type { Notice } from './decide.js';
import { mailerFromEnv, type Mailer } from './mailer.js';
import { Notifier, WEBHOOK_RETRY_SCHEDULE_SECONDS, type RetryPolicy } from './notifier.js';
import type { NotifyQueue } from './queue.js';
import { DynamoDeliveryLog, DynamoNoticeLedger, DynamoSettingsStore, DynamoWebhookLanes } from './stores.js';
import { unsubscribeUrl } from './unsubscribe.js';
import type { WebhookTransport } from './webhook.js';
import type { webhookTransport } from './webhook-transport.js';

/**
 * The network's webhook transport (functions/notify/webhook-transport.ts), imported with the first
 * webhook delivered: its node:http(s) and node:dns took about 7 ms of every cold start, and most
 * notices are mails.
 */
function webhooksOnFirstUse(opts: Parameters<typeof webhookTransport>[0]): WebhookTransport {
  let transport: Promise<WebhookTransport> | undefined;
  return {
    post: async (url, headers, body) => {
      transport ??= import('./webhook-transport.js').then((m) => m.webhookTransport(opts));
      return (await transport).post(url, headers, body);
    },
  };
}

const num = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);

/**
 * AWS ('requeue'): WEBHOOK_RETRY_SCHEDULE_SECONDS (about three days), or NOTIFY_RETRY_SCHEDULE_SECONDS
 * ("5,300,1800"), each retry a delayed SQS message. In process ('inline'): four attempts, 0.5 s doubling.
 */
export function retryPolicyFromEnv(env: Env, mode: RetryPolicy['mode']): RetryPolicy {
  const listed = env['NOTIFY_RETRY_SCHEDULE_SECONDS']?.split(',').map(Number);
  const schedule = listed?.every((n) => Number.isFinite(n) && n >= 0) ? listed : mode === 'requeue' ? WEBHOOK_RETRY_SCHEDULE_SECONDS : undefined;
  return {
    mode,
    attempts: num(env['NOTIFY_RETRY_ATTEMPTS'], 4),
    baseDelayMs: num(env['NOTIFY_RETRY_BASE_MS'], 500),
    maxDelayMs: num(env['NOTIFY_RETRY_MAX_MS'], 900_000),
    ...(schedule ? { schedule: schedule.map((s) => s * 1000) } : {}),
  };
}

export function createNotifier(opts: {
  client: DynamoDBClient;
  tableName: string;
  env: Env;
  retry: RetryPolicy;
  queue?: NotifyQueue;
  mailer?: Mailer;
  webhooks?: WebhookTransport;
  clock?: Clock;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Local runtime only: webhooks may be plain http to private addresses (receivers on
   * 127.0.0.1). Default false, so the Lambda handler, which never sets it, is strict: public
   * https URLs whose names resolve only to public addresses.
   */
  allowPrivateWebhooks?: boolean;
  /** Seconds a channel may stay 'sending' before its claim counts as a dead worker's (default NOTIFY_LEASE_SECONDS, else 90). */
  leaseSeconds?: number;
  /** The PNG a "your move" mail carries (board-picture.ts); no picture without it. */
  boardPicture?: (notice: Notice) => Promise<Uint8Array | undefined>;
  /** Local runtime only (its queue is in memory): see NotifierDeps.resumeRetriesFrom. */
  resumeRetriesFrom?: string;
}): Notifier {
  const { client, tableName, env } = opts;
  const settings = new DynamoSettingsStore(client, tableName);
  // One-click unsubscribe links point at the API (API_URL; locally APP_URL is the API too).
  const apiUrl = env['API_URL'] ?? env['APP_URL'] ?? 'http://localhost:3000';
  return new Notifier({
    settings,
    unsubscribeUrl: async (player, kind) => unsubscribeUrl(apiUrl, player, kind, await settings.unsubscribeKey(player)),
    // NOTIFY_LEASE_SECONDS: how long a claim may stay 'sending' before another worker takes it over (default 90).
    ledger: new DynamoNoticeLedger(client, tableName, opts.leaseSeconds ?? num(env['NOTIFY_LEASE_SECONDS'], 90)),
    deliveries: new DynamoDeliveryLog(client, tableName),
    mailer: opts.mailer ?? mailerFromEnv(env),
    webhooks:
      opts.webhooks ?? webhooksOnFirstUse({ timeoutMs: num(env['WEBHOOK_TIMEOUT_MS'], 5000), policy: { allowPrivate: opts.allowPrivateWebhooks === true } }),
    clock: opts.clock ?? systemClock,
    appUrl: env['APP_URL'] ?? 'http://localhost:3000',
    retry: opts.retry,
    allowPrivateWebhooks: opts.allowPrivateWebhooks === true,
    isStale: turnIsStale(new ReadModelStore(client, tableName)),
    lanes: new DynamoWebhookLanes(client, tableName),
    disableWebhook: (player, id, reason, at) => settings.disableWebhook(player, id, reason, at),
    ...(opts.queue ? { queue: opts.queue } : {}),
    ...(opts.sleep ? { sleep: opts.sleep } : {}),
    ...(opts.boardPicture ? { boardPicture: opts.boardPicture } : {}),
    ...(opts.resumeRetriesFrom !== undefined ? { resumeRetriesFrom: opts.resumeRetriesFrom } : {}),
  });
}

/**
 * A turn notice is stale when the game's summary read model (written before the notice was
 * queued) says one of its seats is no longer pending since the notice's version; a reminder,
 * when its seat is no longer waited on since before it.
 */
export function turnIsStale(models: Pick<ReadModelStore, 'getSummary'>): (n: Notice) => Promise<boolean> {
  return async (n) => {
    const s = await models.getSummary(n.gameId);
    if (!s || s.version < n.version) return false;
    const since = (seat: string) => (Object.hasOwn(s.pendingSince, seat) ? s.pendingSince[seat]?.version : undefined);
    // A reminder is old news once the seat has moved: it is no longer pending since before the reminder.
    if (n.kind === 'reminder') return n.seats.some((seat) => (since(seat) ?? Infinity) > n.version);
    return n.seats.some((seat) => since(seat) !== n.version);
  };
}
