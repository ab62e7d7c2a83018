/**
 * Ports between the application service and the outside world, and the one DynamoDB
 * table's item layout. Adapters live beside this file; the domain never sees any of it.
 *
 * TABLE LAYOUT (one table, pk/sk strings, stream NEW_AND_OLD_IMAGES)
 *   pk = GAME#<gameId>, the append layout (every game created since it; store/head-items.ts):
 *     sk = HEAD#<first seq, 10 digits>  one per command, never rewritten, put on condition that the key is
 *                                new (the version in the key is the optimistic lock): engine, status, wakeAt,
 *                                and ev: the command's events and the game's head after them (the summary
 *                                without what the events say, and what it was before) in one compressed record.
 *                                Every snapshotItems commands one also carries the snapshot after it: snap (gzip
 *                                JSON of the state), engineVersion, kernelVersion, parts (as SNAP's below), and
 *                                recent (the newest 50 command keys, as HEAD's below)
 *     sk = SECRET, PART#<hash>   as below
 *   A load is one Query (sk >= EV#, newest first: SECRET, the PART#s, then the HEAD# items down to the newest
 *   holding a snapshot; its page is snapshotItems + 1 + the parts); an append one PutItem (a TransactWriteItems
 *   with SECRET when creating, or with the parts a game's first snapshot needs).
 *   The tip layout (games created before the append layout; still loaded and appended to; after Equinox's DynamoStore):
 *     sk = HEAD                  the tip: layout = 2, version, hash, engine, status, updatedAt, summary
 *                                (GameSummary as a map), recent (binary: 5-byte SHA-256 key, first seq and
 *                                count of the newest 50 commands), snapVersion, and evs: the events after
 *                                the snapshot, one compressed record per command (store/event-batch.ts)
 *     sk = SECRET                seed (hex). Never returned by any API until the game ends.
 *     sk = SNAP                  snapshot at snapVersion: version, engineVersion, kernelVersion, state (gzip JSON, binary),
 *                                parts: where a large constant value was left out of state -> its content hash
 *                                ('meta.options', 'game.<key>' for the engine's staticState)
 *     sk = PART#<hash>           one such value (gzip JSON, binary), written once per game, never changed:
 *                                the card catalog is stored once, not in every snapshot
 *     sk = B#<first seq>         a batch: the tip's events moved out when a snapshot was written
 *                                (first, last, cmds: the command keys, evs: compressed command records)
 *   A load is one Query (sk >= EV#, newest first: SNAP, SECRET, PART#s, HEAD); an append one conditional
 *   PutItem of HEAD (the tip as loaded, the command added), or one TransactWriteItems (batch items, SNAP, HEAD) when a snapshot is due.
 *   The item-per-event layout (games created before the tip; still loaded and appended to):
 *     sk = EV#<seq, 10 digits>   an event: gameId, seq, type, envelope (the EventEnvelope as JSON)
 *     sk = HEAD                  as above without layout, evs, snapVersion; recent is a map commandId -> {from,to}
 *     sk = SECRET, SNAP          as above
 *     sk = CMD#<commandId>       idempotency record: {from, to} event range it produced
 *   Sort keys order B# < CMD# < EV# < HEAD < HEAD#… < PART# < SECRET < SNAP, so the same reverse Query returns
 *   an older game's snapshot, secret, parts, head and newest events: every layout loads in one round trip.
 *   Read models (built by the projector from the stream records of HEAD and the HEAD# items):
 *     One item per entry, keyed by its place in the list, so the listings page with one Query
 *     (Limit + ExclusiveStartKey): see projections/keys.ts.
 *       INBOX#<player> sk = PAGE#0#<since>#<gameId> (your move) | PAGE#1#<updatedAt desc>#<gameId>
 *                      that player's games, whose move, since when
 *       LOBBY          sk = PAGE#<createdAt desc>#<gameId>   open games with free seats
 *     (Tables written before kept a GAME#<gameId> item beside each; the projector and the rebuild remove them.)
 *     pk = SUMMARY#<gameId> sk = SUMMARY         the public GameSummary, and where the game's entries are (entries)
 *     pk = PLAYER#<player> sk = SETTINGS         notification channels; the email's verification state:
 *                                                emailVerifiedAt, or a pending emailVerification {tokenHash
 *                                                (SHA-256 of the mailed token, never the token), expiresAt},
 *                                                verificationMailedAt (resend rate limit)
 *     pk = PLAYER#<player> sk = DELIVERY#<time>#<id>#<attempt>  webhook/email delivery attempts
 *     pk = NOTIFIED#<key>  sk = NOTIFIED          dedupe record: one "your turn" per turn
 *                          sk = CHANNEL#<id>       per channel (email / webhook id): sending | retrying | sent | failed
 *
 * HANDLERS (one esbuild entry each, all export `handler`)
 *   functions/handlers/api.ts        HTTP events, payload format 2.0 (a Lambda function URL or API Gateway HTTP API)
 *   functions/handlers/projector.ts  DynamoDB stream batches: read models + notification jobs
 *   functions/handlers/notifier.ts   SQS batches: send email / webhooks
 *   functions/handlers/picture.ts    invoked by the notifier: a player's board as PNG (reads the game, posts nowhere)
 *   functions/handlers/scheduler.ts  DynamoDB stream batches: an EventBridge Scheduler one-time schedule per game's next wake
 *   functions/handlers/deadline.ts   invoked by those schedules: a due lapse, time-out or reminder (one read, at most one write)
 * ENVIRONMENT: TABLE_NAME, NOTIFY_QUEUE_URL (FIFO), NOTIFY_RETRY_QUEUE_URL, MAIL_FROM, APP_URL, AUTH_MODE=cognito|cognito-jwt|local (api only; cognito-jwt with COGNITO_ISSUER and COGNITO_CLIENT_ID or COGNITO_CLIENT_ID_PARAMETER),
 *   SCHEDULE_GROUP, DEADLINE_FUNCTION_ARN, SCHEDULER_ROLE_ARN, SCHEDULE_DLQ_ARN (scheduler only),
 *   LOCAL_JWT_SECRET (local only), DYNAMODB_ENDPOINT (local only).
 */
import type { EventEnvelope, GameState, GameSummary, ReminderLevel, RuleViolation } from '../domain/kernel/index.js';
import type { NoticeKind } from './notify/decide.js';

export interface Snapshot {
  readonly version: number;
  readonly engineVersion: number;
  /** The kernel's state shape it was taken under (KERNEL_STATE_VERSION); absent on snapshots from before it was recorded. */
  readonly kernelVersion?: number;
  readonly state: GameState;
  /** The engine's staticState: keys of state.game the store may keep once per game (a PART item) rather than in the snapshot. */
  readonly staticKeys?: readonly string[];
}

export interface LoadedStream {
  readonly gameId: string;
  readonly version: number;
  readonly hash: string;
  readonly seed: string;
  readonly snapshot?: Snapshot;
  /** Events after the snapshot (all events when there is none), in order. */
  readonly tail: readonly EventEnvelope[];
  /** Recent commandIds and the event range each produced. */
  readonly recent: Readonly<Record<string, CommandRecord>>;
  /**
   * Whether the next append should carry a snapshot, when the store decides (the append layout:
   * once a load would read more items than its page holds); absent, the service's snapshotEvery does.
   */
  readonly snapshotDue?: boolean;
}

export interface CommandRecord {
  readonly from: number;
  readonly to: number;
}

export interface AppendRequest {
  readonly gameId: string;
  /** 0 when creating the game. */
  readonly expectedVersion: number;
  readonly events: readonly EventEnvelope[];
  readonly commandId: string;
  readonly summary: GameSummary;
  /** Only when creating. */
  readonly seed?: string;
  /** Written when the tail would otherwise grow past the snapshot interval. */
  readonly snapshot?: Snapshot;
  /** HEAD's `recent` as loaded; the store adds this command and keeps the newest few. */
  readonly recent?: Readonly<Record<string, CommandRecord>>;
}

export class ConcurrencyError extends Error {
  override name = 'ConcurrencyError';
}
export class DuplicateCommandError extends Error {
  override name = 'DuplicateCommandError';
  constructor(readonly record: CommandRecord) {
    super('command already applied');
  }
}

export interface EventStore {
  /**
   * One read round trip: head, secret, snapshot and the tail after it. `recent` is keyed by commandId (older games) or by commandKey (store/event-batch.ts).
   * `consistent: false` lets DynamoDB answer from an eventually consistent read (half the read units): for views, and for a command's first load, whose append is conditional on the version it read.
   */
  load(gameId: string, opts?: { readonly consistent?: boolean }): Promise<LoadedStream | undefined>;
  /** One write round trip (PutItem, UpdateItem or TransactWriteItems). Throws ConcurrencyError or DuplicateCommandError. */
  append(req: AppendRequest): Promise<void>;
  getCommand(gameId: string, commandId: string): Promise<CommandRecord | undefined>;
  /** Whether the stream holds no event past `version`, read strongly consistent: one small read that says an eventually consistent load was the newest. */
  isCurrent(gameId: string, version: number): Promise<boolean>;
  /**
   * Events with seq > after, in order, at most limit. `upTo`: none past that seq (the caller holds
   * them already: the events after a snapshot come with the load), so a store may leave the newer
   * items unread. `consistent: false` with `upTo`: a store may read eventually consistent where it
   * can tell the events it got run unbroken to `upTo` (half the read units).
   */
  readEvents(gameId: string, after: number, limit: number, opts?: { readonly upTo?: number; readonly consistent?: boolean }): Promise<EventEnvelope[]>;
}

export interface Clock {
  now(): string;
}
export interface SeedSource {
  /** 32 random bytes, hex. */
  newSeed(): string;
  newId(): string;
}

/** Errors the application service raises; the HTTP edge maps them to status codes. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 503,
    readonly code: string,
    message: string,
    readonly rule?: string,
  ) {
    super(message);
  }
  static fromViolation(v: RuleViolation, status: 403 | 422 = 422): AppError {
    return new AppError(status, v.code, v.message, v.rule);
  }
}

export interface NotificationSettings {
  readonly email?: string;
  /** When `email` was confirmed by its owner; absent: not verified, and nothing is mailed to it. */
  readonly emailVerifiedAt?: string;
  /** A confirmation of `email` waiting for its token (only the token's SHA-256 hash is kept). */
  readonly emailVerification?: { readonly tokenHash: string; readonly expiresAt: string };
  /** When the last verification mail was sent (kept across address changes, for the rate limit). */
  readonly verificationMailedAt?: string;
  readonly webhooks: readonly StoredWebhook[];
  /** Notice kinds not mailed: turned off in settings, or with a mail's one-click unsubscribe link. */
  readonly emailOff?: readonly NoticeKind[];
  /** Reminder levels this player does not want, by mail or webhook (all are sent by default). */
  readonly remindersOff?: readonly ReminderLevel[];
  /** The key this player's unsubscribe links are signed with (notify/unsubscribe.ts); never shown. */
  readonly unsubscribeKey?: string;
  /** The daily digest (notify/digest.ts): one mail a day at `hour` in `timeZone` (UTC by default) instead of each "your move" mail. */
  readonly digest?: { readonly hour: number; readonly timeZone?: string };
}
/** A player's webhook as stored: never shown whole (GET /v1/me/settings masks the URL and hides the secrets). */
export interface StoredWebhook {
  readonly id: string;
  readonly url: string;
  /** `whsec_` + base64 key (Standard Webhooks); shown to its owner once, when made or rotated. */
  readonly secret: string;
  readonly format: 'json' | 'discord' | 'slack';
  /** The secret before the last rotation: deliveries carry a signature with it too until `until`. */
  readonly previousSecret?: { readonly secret: string; readonly until: string };
  /** Switched off by the notifier (410 Gone, or failing past the retry schedule); PUT with `enabled: true` switches it on. */
  readonly disabled?: { readonly at: string; readonly reason: string };
}

export interface SettingsStore {
  get(player: string): Promise<NotificationSettings | undefined>;
  put(player: string, settings: NotificationSettings): Promise<void>;
}
