import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { NotificationSettings, SettingsStore } from '../ports.js';
import { notifyJobSchema, type NoticeKind, type NotifyJob } from './decide.js';
import { newUnsubscribeKey } from './unsubscribe.js';
import type { DigestBook, DigestSetting, DigestSubscriber } from './digest.js';
import { documentClient, isConditionFailure } from '../store/document-client.js';

/** Notification dedupe records and delivery logs expire after this long (TTL attribute `expiresAt`). */
export const RECORD_TTL_SECONDS = 90 * 24 * 3600;
const expiresAt = (nowIso: string) => Math.floor(Date.parse(nowIso) / 1000) + RECORD_TTL_SECONDS;

/** PLAYER#<p>/SETTINGS: a player's notification channels and their email's verification state. */
export class DynamoSettingsStore implements SettingsStore {
  private readonly doc: DynamoDBDocumentClient;
  constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
  ) {
    this.doc = documentClient(client);
  }
  private key = (player: string) => ({ pk: `PLAYER#${player}`, sk: 'SETTINGS' });
  async get(player: string): Promise<NotificationSettings | undefined> {
    const r = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: this.key(player), ConsistentRead: true }));
    if (!r.Item) return undefined;
    const { email, webhooks, emailVerifiedAt, emailVerification, verificationMailedAt, emailOff, remindersOff, unsubscribeKey, digest } =
      r.Item as NotificationSettings & {
        webhooks?: NotificationSettings['webhooks'];
      };
    return {
      ...(email ? { email } : {}),
      ...(emailOff?.length ? { emailOff: [...emailOff] } : {}),
      ...(remindersOff?.length ? { remindersOff: [...remindersOff] } : {}),
      ...(unsubscribeKey ? { unsubscribeKey } : {}),
      ...(digest ? { digest: { hour: digest.hour, ...(digest.timeZone ? { timeZone: digest.timeZone } : {}) } } : {}),
      ...(email && emailVerifiedAt ? { emailVerifiedAt } : {}),
      ...(email && emailVerification ? { emailVerification: { tokenHash: emailVerification.tokenHash, expiresAt: emailVerification.expiresAt } } : {}),
      ...(verificationMailedAt ? { verificationMailedAt } : {}),
      webhooks: webhooks ?? [],
    };
  }
  async put(player: string, settings: NotificationSettings): Promise<void> {
    const { email, emailVerifiedAt, emailVerification, verificationMailedAt, webhooks, emailOff, remindersOff, unsubscribeKey, digest } = settings;
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...this.key(player),
          type: 'settings',
          player,
          ...(email ? { email } : {}),
          ...(email && emailVerifiedAt ? { emailVerifiedAt } : {}),
          ...(email && emailVerification ? { emailVerification } : {}),
          ...(verificationMailedAt ? { verificationMailedAt } : {}),
          ...(emailOff?.length ? { emailOff } : {}),
          ...(remindersOff?.length ? { remindersOff } : {}),
          ...(unsubscribeKey ? { unsubscribeKey } : {}),
          ...(digest ? { digest } : {}),
          webhooks,
        },
      }),
    );
    // The digest sweep finds its subscribers in one partition (DynamoDigestBook), not by scanning settings.
    await (digest ? this.digests.subscribe(player, digest) : this.digests.unsubscribe(player));
  }
  private get digests() {
    return new DynamoDigestBook(this.doc, this.tableName);
  }
  /** Switches a webhook off (410 Gone, or failing past the retry schedule); false if it is gone or off already. */
  async disableWebhook(player: string, id: string, reason: string, nowIso: string): Promise<boolean> {
    const s = await this.get(player);
    const hook = s?.webhooks.find((w) => w.id === id);
    if (!s || !hook || hook.disabled) return false;
    await this.put(player, { ...s, webhooks: s.webhooks.map((w) => (w.id === id ? { ...w, disabled: { at: nowIso, reason } } : w)) });
    return true;
  }
  /** The key the player's unsubscribe links are signed with, made on first use (one write, race-free). */
  async unsubscribeKey(player: string): Promise<string> {
    const r = await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.key(player),
        UpdateExpression:
          'SET unsubscribeKey = if_not_exists(unsubscribeKey, :k), #t = if_not_exists(#t, :type), player = if_not_exists(player, :p), webhooks = if_not_exists(webhooks, :none)',
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: { ':k': newUnsubscribeKey(), ':type': 'settings', ':p': player, ':none': [] },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return (r.Attributes as { unsubscribeKey: string }).unsubscribeKey;
  }
  /** Stops mailing one kind of notice to the player (the one-click unsubscribe); true if it was mailed until now. */
  async turnOffEmail(player: string, kind: NoticeKind): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(player),
          UpdateExpression: 'SET emailOff = list_append(if_not_exists(emailOff, :none), :kind)',
          ConditionExpression: 'attribute_exists(pk) AND NOT contains(emailOff, :k)',
          ExpressionAttributeValues: { ':none': [], ':kind': [kind], ':k': kind },
        }),
      );
      return true;
    } catch (e) {
      if (isConditionFailure(e)) return false;
      throw e;
    }
  }
  /**
   * Marks `email` verified if it is still the player's address and the pending token's hash is
   * `tokenHash` (one conditional write: a token for an address changed since, or replaced by a
   * newer mail, confirms nothing). False when the condition did not hold.
   */
  async confirmEmail(player: string, email: string, tokenHash: string, nowIso: string): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(player),
          UpdateExpression: 'SET emailVerifiedAt = :now REMOVE emailVerification',
          ConditionExpression: 'email = :email AND emailVerification.tokenHash = :h AND emailVerification.expiresAt > :now',
          ExpressionAttributeValues: { ':email': email, ':h': tokenHash, ':now': nowIso },
        }),
      );
      return true;
    } catch (e) {
      if (isConditionFailure(e)) return false;
      throw e;
    }
  }
  /**
   * Replaces the pending token of a still unverified `email` (a resend), only if no verification
   * mail went out after `notAfterIso` (the rate limit, checked in the same write).
   */
  async renewVerification(
    player: string,
    email: string,
    pending: { tokenHash: string; expiresAt: string },
    nowIso: string,
    notAfterIso: string,
  ): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(player),
          UpdateExpression: 'SET emailVerification = :v, verificationMailedAt = :now',
          ConditionExpression:
            'email = :email AND attribute_not_exists(emailVerifiedAt) AND (attribute_not_exists(verificationMailedAt) OR verificationMailedAt <= :cutoff)',
          ExpressionAttributeValues: { ':email': email, ':v': pending, ':now': nowIso, ':cutoff': notAfterIso },
        }),
      );
      return true;
    } catch (e) {
      if (isConditionFailure(e)) return false;
      throw e;
    }
  }
}

/**
 * DIGESTS/PLAYER#<p>: who has the daily digest on, at which hour and zone, and the last day
 * theirs went out (`lastDay`, the player's local YYYY-MM-DD). Claiming a day is one conditional
 * write, so two sweeps never both send it.
 */
export class DynamoDigestBook implements DigestBook {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}
  static of(client: DynamoDBClient, tableName: string): DynamoDigestBook {
    return new DynamoDigestBook(documentClient(client), tableName);
  }
  private key = (player: string) => ({ pk: 'DIGESTS', sk: `PLAYER#${player}` });
  async subscribe(player: string, setting: DigestSetting): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.key(player),
        UpdateExpression: 'SET #t = :type, player = :p, setting = :s',
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: { ':type': 'digest', ':p': player, ':s': setting },
      }),
    );
  }
  async unsubscribe(player: string): Promise<void> {
    await this.doc.send(new DeleteCommand({ TableName: this.tableName, Key: this.key(player) }));
  }
  async subscribers(): Promise<DigestSubscriber[]> {
    const out: DigestSubscriber[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const r = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': 'DIGESTS' },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const i of r.Items ?? []) {
        const { player, setting, lastDay } = i as { player: string; setting: DigestSetting; lastDay?: string };
        out.push({ player, setting, ...(lastDay ? { lastDay } : {}) });
      }
      start = r.LastEvaluatedKey;
    } while (start);
    return out;
  }
  async claim(player: string, day: string, nowIso: string): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(player),
          UpdateExpression: 'SET lastDay = :d, sentAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastDay) OR lastDay < :d)',
          ExpressionAttributeValues: { ':d': day, ':now': nowIso },
        }),
      );
      return true;
    } catch (e) {
      if (isConditionFailure(e)) return false;
      throw e;
    }
  }
  async release(player: string, day: string, previous: string | undefined): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(player),
          UpdateExpression: previous ? 'SET lastDay = :prev' : 'REMOVE lastDay',
          ConditionExpression: 'lastDay = :d',
          ExpressionAttributeValues: { ':d': day, ...(previous ? { ':prev': previous } : {}) },
        }),
      );
    } catch (e) {
      if (!isConditionFailure(e)) throw e;
    }
  }
}

export interface DeliveryRecord {
  readonly deliveryId: string;
  readonly noticeKey: string;
  readonly kind: string;
  readonly gameId: string;
  readonly channel: 'email' | 'webhook';
  readonly channelId: string;
  /** The address or a masked URL (chat webhook URLs carry tokens). */
  readonly target: string;
  readonly attempt: number;
  readonly ok: boolean;
  /** HTTP status for webhooks. */
  readonly status?: number;
  readonly error?: string;
  /** 'sent', 'retrying' (another attempt is scheduled) or 'failed' (gave up). */
  readonly outcome: 'sent' | 'retrying' | 'failed';
  readonly at: string;
  /** When the next attempt is due ('retrying'). */
  readonly nextAttemptAt?: string;
}

export interface DeliveryLog {
  record(player: string, d: DeliveryRecord): Promise<void>;
  /** Newest first. */
  list(player: string, limit: number): Promise<DeliveryRecord[]>;
  /** Whether a delivery with this id was recorded as accepted at or after `sinceIso` (a worker that died before settling its claim). */
  sentSince(player: string, deliveryId: string, sinceIso: string): Promise<boolean>;
}

/** PLAYER#<p>/DELIVERY#<time>#<deliveryId>#<attempt>: every delivery attempt, visible to its owner. */
export class DynamoDeliveryLog implements DeliveryLog {
  private readonly doc: DynamoDBDocumentClient;
  constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
  ) {
    this.doc = documentClient(client);
  }
  async record(player: string, d: DeliveryRecord): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: `PLAYER#${player}`,
          sk: `DELIVERY#${d.at}#${d.deliveryId}#${String(d.attempt).padStart(3, '0')}`,
          type: 'delivery',
          ...d,
          expiresAt: expiresAt(d.at),
        },
      }),
    );
  }
  async list(player: string, limit: number): Promise<DeliveryRecord[]> {
    const r = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :d)',
        ExpressionAttributeValues: { ':pk': `PLAYER#${player}`, ':d': 'DELIVERY#' },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (r.Items ?? []).map((i) => {
      const { pk: _pk, sk: _sk, type: _t, expiresAt: _e, ...rest } = i as Record<string, unknown>;
      return rest as unknown as DeliveryRecord;
    });
  }
  async sentSince(player: string, deliveryId: string, sinceIso: string): Promise<boolean> {
    let start: Record<string, unknown> | undefined;
    do {
      // Sort keys start with the attempt's time, so only attempts since the claim are read.
      const r = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          FilterExpression: 'deliveryId = :d AND ok = :ok',
          ExpressionAttributeValues: { ':pk': `PLAYER#${player}`, ':from': `DELIVERY#${sinceIso}`, ':to': 'DELIVERY#\uffff', ':d': deliveryId, ':ok': true },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      if ((r.Items ?? []).length > 0) return true;
      start = r.LastEvaluatedKey;
    } while (start);
    return false;
  }
}

/**
 * Dedupe ledger. NOTIFIED#<key>/NOTIFIED records that a notice was taken up and which
 * channels it goes to; NOTIFIED#<key>/CHANNEL#<id> records each channel's delivery. Both
 * are created with attribute_not_exists, so a stream replay or a duplicate queue message
 * never sends the same notice twice on a channel. A claim left 'sending' by a crashed
 * worker can be taken over after `staleSeconds` (receivers dedupe by delivery id).
 */
export interface NoticeLedger {
  /** Records the notice with its channels; returns the channels recorded first (on a replay, the original list). */
  open(key: string, player: string, channels: readonly string[], nowIso: string): Promise<readonly string[]>;
  claim(key: string, channel: string, nowIso: string): Promise<boolean>;
  claimRetry(key: string, channel: string, attempt: number, nowIso: string): Promise<boolean>;
  /** `dueAt`: when a scheduled retry is due (kept on the claim, so a local runtime that lost its in-memory queue can resume it). */
  settle(key: string, channel: string, state: 'sent' | 'failed' | { retryAttempt: number; dueAt?: string }, nowIso: string): Promise<void>;
  /**
   * Like claim / claimRetry, and says whether the claim was taken over from a worker that left
   * it 'sending' past the lease (then `from` is when that worker claimed it): its delivery may
   * have gone out before it died.
   */
  take(key: string, channel: string, nowIso: string, attempt?: number, staleBefore?: string): Promise<false | { readonly from?: string }>;
  /** A channel's record as it is now. */
  inspect(key: string, channel: string): Promise<ChannelClaim | undefined>;
  /** How long a claim may stay 'sending' before it counts as left by a dead worker. */
  readonly leaseSeconds: number;
  /**
   * Gives a claim back after an infrastructure error, as it was before this worker took it,
   * so the redelivered message can take it again: a first attempt's claim is removed, a
   * retry attempt's claim (`retrying`, default: attempt > 1) goes back to 'retrying' at that attempt.
   */
  release(key: string, channel: string, attempt?: number, retrying?: boolean): Promise<void>;
}

export interface ChannelClaim {
  readonly state: 'sending' | 'retrying' | 'sent' | 'failed';
  readonly attempt: number;
  readonly claimedAt: string;
  readonly settledAt?: string;
  /** A scheduled retry: when it is due. */
  readonly dueAt?: string;
}

export class DynamoNoticeLedger implements NoticeLedger {
  private readonly doc: DynamoDBDocumentClient;
  /**
   * staleSeconds: a claim still 'sending' after this long belongs to a worker that died (a
   * notifier Lambda times out after 30 s); it is kept below the queue's visibility timeout so
   * the redelivered message can take it over instead of being dropped as a duplicate.
   */
  constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
    private readonly staleSeconds = 90,
  ) {
    this.doc = documentClient(client);
  }
  private pk = (key: string) => `NOTIFIED#${key}`;

  get leaseSeconds(): number {
    return this.staleSeconds;
  }

  async open(key: string, player: string, channels: readonly string[], nowIso: string): Promise<readonly string[]> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: this.pk(key), sk: 'NOTIFIED', type: 'notified', key, player, channels, at: nowIso, expiresAt: expiresAt(nowIso) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return channels;
    } catch (e) {
      if (!isConditionFailure(e)) throw e;
      const r = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: this.pk(key), sk: 'NOTIFIED' }, ConsistentRead: true }));
      return ((r.Item?.['channels'] as string[] | undefined) ?? []).filter((c) => channels.includes(c));
    }
  }

  async claim(key: string, channel: string, nowIso: string): Promise<boolean> {
    return (await this.take(key, channel, nowIso)) !== false;
  }

  async claimRetry(key: string, channel: string, attempt: number, nowIso: string): Promise<boolean> {
    return (await this.take(key, channel, nowIso, attempt)) !== false;
  }

  /** `staleBefore`: a claim made before this time also counts as a dead worker's (a local runtime started after it: the one before is gone). */
  async take(key: string, channel: string, nowIso: string, attempt?: number, staleBefore?: string): Promise<false | { readonly from?: string }> {
    const stale = this.staleCutoff(nowIso, staleBefore);
    const old = attempt === undefined ? await this.claimFirst(key, channel, nowIso, stale) : await this.claimAttempt(key, channel, attempt, nowIso, stale);
    if (old === false) return false;
    return old?.['state'] === 'sending' && typeof old['claimedAt'] === 'string' ? { from: old['claimedAt'] } : {};
  }

  async inspect(key: string, channel: string): Promise<ChannelClaim | undefined> {
    const r = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: this.pk(key), sk: `CHANNEL#${channel}` }, ConsistentRead: true }));
    if (!r.Item) return undefined;
    return {
      state: r.Item['state'] as ChannelClaim['state'],
      attempt: (r.Item['attempt'] as number | undefined) ?? 1,
      claimedAt: String(r.Item['claimedAt'] ?? ''),
      ...(typeof r.Item['settledAt'] === 'string' ? { settledAt: r.Item['settledAt'] } : {}),
      ...(typeof r.Item['dueAt'] === 'string' ? { dueAt: r.Item['dueAt'] } : {}),
    };
  }

  /**
   * The record before a first-attempt claim (undefined: there was none), or false when the claim is not free.
   * Each claim carries its own token, so the SDK's retry of a claim whose reply was lost finds its own
   * claim and goes on (as a take-over: the delivery log is asked first), instead of waiting out the lease.
   */
  private staleCutoff(nowIso: string, staleBefore: string | undefined): string {
    const lease = new Date(Date.parse(nowIso) - this.staleSeconds * 1000).toISOString();
    return staleBefore !== undefined && staleBefore > lease ? staleBefore : lease;
  }

  private async claimFirst(key: string, channel: string, nowIso: string, stale: string): Promise<Record<string, unknown> | undefined | false> {
    const token = randomUUID();
    return this.conditionalOld(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: this.pk(key),
          sk: `CHANNEL#${channel}`,
          type: 'notified-channel',
          state: 'sending',
          attempt: 1,
          claimedAt: nowIso,
          claimToken: token,
          expiresAt: expiresAt(nowIso),
        },
        ConditionExpression: 'attribute_not_exists(pk) OR (#s = :sending AND (claimedAt < :stale OR claimToken = :token))',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':sending': 'sending', ':stale': stale, ':token': token },
        ReturnValues: 'ALL_OLD',
      }),
    );
  }

  private async claimAttempt(
    key: string,
    channel: string,
    attempt: number,
    nowIso: string,
    stale: string,
  ): Promise<Record<string, unknown> | undefined | false> {
    const token = randomUUID();
    return this.conditionalOld(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: this.pk(key), sk: `CHANNEL#${channel}` },
        UpdateExpression: 'SET #s = :sending, attempt = :a, claimedAt = :now, claimToken = :token',
        ConditionExpression: 'attempt = :a AND (#s = :retrying OR (#s = :sending AND (claimedAt < :stale OR claimToken = :token)))',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':sending': 'sending', ':retrying': 'retrying', ':a': attempt, ':now': nowIso, ':stale': stale, ':token': token },
        ReturnValues: 'ALL_OLD',
      }),
    );
  }

  async settle(key: string, channel: string, state: 'sent' | 'failed' | { retryAttempt: number; dueAt?: string }, nowIso: string): Promise<void> {
    const retry = typeof state === 'object';
    const due = retry && state.dueAt !== undefined;
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: this.pk(key), sk: `CHANNEL#${channel}` },
        UpdateExpression: retry
          ? due
            ? 'SET #s = :s, attempt = :a, settledAt = :now, dueAt = :due'
            : 'SET #s = :s, attempt = :a, settledAt = :now REMOVE dueAt'
          : 'SET #s = :s, settledAt = :now REMOVE dueAt',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: {
          ':s': retry ? 'retrying' : state,
          ':now': nowIso,
          ...(retry ? { ':a': state.retryAttempt } : {}),
          ...(due ? { ':due': state.dueAt } : {}),
        },
      }),
    );
  }

  async release(key: string, channel: string, attempt = 1, retrying = attempt > 1): Promise<void> {
    // The worker may already have moved the claim on to 'retrying' (the failure was sending the retry message).
    const Key = { pk: this.pk(key), sk: `CHANNEL#${channel}` };
    const ConditionExpression = '#s = :sending OR #s = :retrying';
    const names = { '#s': 'state' };
    const values = { ':sending': 'sending', ':retrying': 'retrying' };
    try {
      await this.doc.send(
        !retrying
          ? new DeleteCommand({ TableName: this.tableName, Key, ConditionExpression, ExpressionAttributeNames: names, ExpressionAttributeValues: values })
          : new UpdateCommand({
              TableName: this.tableName,
              Key,
              UpdateExpression: 'SET #s = :retrying, attempt = :a',
              ConditionExpression,
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: { ...values, ':a': attempt },
            }),
      );
    } catch (e) {
      if (!isConditionFailure(e)) throw e;
    }
  }

  private async conditionalOld(cmd: PutCommand | UpdateCommand): Promise<Record<string, unknown> | undefined | false> {
    try {
      const r = await this.doc.send(cmd as PutCommand);
      return r.Attributes;
    } catch (e) {
      if (isConditionFailure(e)) return false;
      throw e;
    }
  }
}

/**
 * A webhook's notices of one game go out in the game's order: while a notice is retrying, the
 * later notices of that game for that webhook wait behind it (stored here, not retried on their
 * own), and each settled notice hands the next one on. PLAYER#<p>/LANE#<channel>#<gameId>:
 * `open`, the versions not settled yet that went through here; `waiting`, the jobs parked
 * behind an earlier one, by version.
 */
export interface WebhookLanes {
  /** True when an earlier notice of the game is still open: the job is parked and will be handed on. */
  waitBehind(player: string, channel: string, gameId: string, version: number, job: NotifyJob, nowIso: string): Promise<boolean>;
  /** The notice failed and will be retried: later notices wait behind it. */
  hold(player: string, channel: string, gameId: string, version: number, nowIso: string): Promise<void>;
  /** The notice is settled (sent, or given up): the parked job that is next in the game's order, now due. */
  done(player: string, channel: string, gameId: string, version: number): Promise<NotifyJob | undefined>;
}

export class DynamoWebhookLanes implements WebhookLanes {
  private readonly doc: DynamoDBDocumentClient;
  constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
  ) {
    this.doc = documentClient(client);
  }
  private key = (player: string, channel: string, gameId: string) => ({ pk: `PLAYER#${player}`, sk: `LANE#${channel}#${gameId}` });

  private async read(key: { pk: string; sk: string }): Promise<{ open: number[]; waiting: Record<string, string> }> {
    const r = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    const open = r.Item?.['open'] as Set<number> | undefined;
    return { open: [...(open ?? [])].sort((a, b) => a - b), waiting: (r.Item?.['waiting'] as Record<string, string> | undefined) ?? {} };
  }

  async waitBehind(player: string, channel: string, gameId: string, version: number, job: NotifyJob, nowIso: string): Promise<boolean> {
    const key = this.key(player, channel, gameId);
    for (;;) {
      const { open } = await this.read(key);
      const ahead = open.find((v) => v < version);
      if (ahead === undefined) return false;
      try {
        // Parked only if the notice ahead is still open: if it settled meanwhile, look again.
        await this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'SET waiting.#v = :job, expiresAt = :exp ADD #open :v',
            ConditionExpression: 'contains(#open, :ahead)',
            ExpressionAttributeNames: { '#v': `v${version}`, '#open': 'open' },
            ExpressionAttributeValues: { ':job': JSON.stringify(job), ':v': new Set([version]), ':ahead': ahead, ':exp': expiresAt(nowIso) },
          }),
        );
        return true;
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
      }
    }
  }

  async hold(player: string, channel: string, gameId: string, version: number, nowIso: string): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.key(player, channel, gameId),
        // A lane outlives its retries by the records' TTL, then expires (every hold and park moves it on).
        UpdateExpression: 'SET #t = :type, waiting = if_not_exists(waiting, :none), expiresAt = :exp ADD #open :v',
        ExpressionAttributeNames: { '#t': 'type', '#open': 'open' },
        ExpressionAttributeValues: { ':type': 'webhook-lane', ':none': {}, ':v': new Set([version]), ':exp': expiresAt(nowIso) },
      }),
    );
  }

  async done(player: string, channel: string, gameId: string, version: number): Promise<NotifyJob | undefined> {
    const key = this.key(player, channel, gameId);
    const r = await this.doc
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'DELETE #open :v',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#open': 'open' },
          ExpressionAttributeValues: { ':v': new Set([version]) },
          ReturnValues: 'ALL_NEW',
        }),
      )
      .catch((e: unknown) => {
        if (isConditionFailure(e)) return undefined;
        throw e;
      });
    const open = [...((r?.Attributes?.['open'] as Set<number> | undefined) ?? [])].sort((a, b) => a - b);
    const next = open[0];
    const waiting = (r?.Attributes?.['waiting'] as Record<string, string> | undefined) ?? {};
    if (next === undefined || !Object.hasOwn(waiting, `v${next}`)) return undefined;
    try {
      // Taken out in the same write that checks it is there: only one worker hands it on. The write
      // leaves this worker's token, so the SDK's retry of a write whose reply was lost passes its
      // condition instead of taking the job for someone else's (it would then be handed on by nobody).
      const token = randomUUID();
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'REMOVE waiting.#v SET #h = :token',
          ConditionExpression: 'attribute_exists(waiting.#v) OR #h = :token',
          ExpressionAttributeNames: { '#v': `v${next}`, '#h': `handed${next}` },
          ExpressionAttributeValues: { ':token': token },
        }),
      );
      return notifyJobSchema.parse(JSON.parse(waiting[`v${next}`]!));
    } catch (e) {
      if (isConditionFailure(e)) return undefined;
      throw e;
    }
  }
}
