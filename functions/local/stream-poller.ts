import type { Env } from '../environment.js';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { Mailer } from '../notify/mailer.js';
import type { Notifier, RetryPolicy } from '../notify/notifier.js';
import { InProcessQueue } from '../notify/queue.js';
import { boardPictureFrom, drawBoard } from '../notify/board-picture.js';
import { digestSweep } from '../notify/digest-wiring.js';
import { systemClock } from '../environment.js';
import { createNotifier, retryPolicyFromEnv } from '../notify/wiring.js';
import type { WebhookTransport } from '../notify/webhook.js';
import { ReadModelStore } from '../projections/read-model-store.js';
import { createTournamentWorld, processTournamentRecords } from '../app/tournament-reactor.js';
import { processStreamRecords, type BatchResult } from '../projections/stream.js';
import type { StreamRecordLike } from '../projections/stream-image.js';
import type { Clock } from '../ports.js';
import { mailHttp, startMailSink, type MailSink } from './mail-sink.js';
import { SmtpMailer, smtpMailerFromUrl } from './smtp-mailer.js';
import type { RuntimeContext, Stoppable } from './runtime.js';

/**
 * Local parity for the Lambda event source mapping: reads the DynamoDB Local table's
 * stream (every shard, following new ones, children after their parents) and hands the
 * records to the same batch function the projector Lambda runs. Failed records are retried
 * from the first failure, like Lambda. After `maxRetries` the failed records are PARKED by
 * game (partition), not dropped: the shard moves on for the other games, the parked game's
 * later records queue behind its failed one, and the game is retried on every pass with a
 * backoff until it goes through. The shard's checkpoint never passes a parked record, so a
 * restart reads it again. A game whose last record failed would otherwise keep a stale read
 * model (and miss its notices) for good.
 */
export interface StreamPollerOptions {
  readonly client: DynamoDBClient;
  readonly endpoint: string;
  readonly tableName: string;
  readonly onRecords: (records: readonly StreamRecordLike[]) => Promise<BatchResult>;
  /** The wait between two passes (default 200 ms). */
  readonly intervalMs?: number;
  /**
   * While passes find nothing new, each waits twice as long as the one before, up to this (default
   * intervalMs: no backoff). For a poller whose writers call wake(), so a quiet stream costs little.
   */
  readonly idleIntervalMs?: number;
  /** Immediate retries of a failed batch before its failed games are parked (default 3). */
  readonly maxRetries?: number;
  /** Longest wait between two tries of a parked game, in ms (default 1000: a fault that has passed is healed within about a second). */
  readonly parkedBackoffMaxMs?: number;
  readonly log?: (line: string) => void;
  /**
   * Where the poller keeps, per shard, the last record it has finished with, so a restart
   * resumes after it instead of reading the whole stream again. Absent: every start reads
   * from the beginning (TRIM_HORIZON), as a throwaway --memory table wants.
   */
  readonly checkpoints?: CheckpointStore;
  /**
   * Says when the work a batch set going (notification jobs, and any retries they queued) has
   * finished: `mark()` is taken before and after each batch is handed over, and
   * `finished(after, through)` says whether the work set going between two marks has. A record is
   * checkpointed only once the work of its batch and of every batch before it has finished: after
   * processing, never before. A later batch whose own work is `settled` (finished, and none of it
   * waits on work set going by another batch) is saved as finished past the checkpoint, and a
   * restart reads it again without handing it over. Default: at once.
   */
  readonly barrier?: { mark(): number; finished(after: number, through: number): boolean; settled(after: number, through: number): boolean };
}

/** Per shard: the sequence number of the last record finished with; `done` once a closed shard is read to its end. */
export interface ShardCheckpoint {
  readonly sequence: string;
  readonly done?: boolean;
  /** Batches past `sequence` (their first and last sequence numbers) whose work has finished: a restart reads them again without handing them over. */
  readonly finished?: readonly FinishedBatch[];
}

type FinishedBatch = readonly [first: string, last: string];

export interface CheckpointStore {
  /** The checkpoints of this stream (none for another stream ARN: the table was made again). */
  load(streamArn: string): Promise<Map<string, ShardCheckpoint>>;
  save(streamArn: string, shards: ReadonlyMap<string, ShardCheckpoint>): Promise<void>;
}

/**
 * Checkpoints in a JSON file in the data folder, not in the table: a write to the table would
 * itself appear in the stream and keep the poller busy writing checkpoints of checkpoints.
 * Written to a temporary file and renamed, so a crash leaves the old file or the new one.
 */
export function fileCheckpoints(file: string): CheckpointStore {
  return {
    async load(streamArn) {
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        return new Map();
      }
      const r = raw as { streamArn?: unknown; shards?: unknown } | null;
      if (!r || r.streamArn !== streamArn || !Array.isArray(r.shards)) return new Map();
      const out = new Map<string, ShardCheckpoint>();
      const isBatch = (b: unknown): b is FinishedBatch => Array.isArray(b) && b.length === 2 && b.every((x) => typeof x === 'string');
      for (const x of r.shards as unknown[]) {
        const [id, cp] = Array.isArray(x) ? (x as [unknown, { sequence?: unknown; done?: unknown; finished?: unknown } | null]) : [undefined, null];
        if (typeof id !== 'string' || !cp || typeof cp.sequence !== 'string') continue;
        const finished = Array.isArray(cp.finished) ? cp.finished.filter(isBatch) : [];
        out.set(id, { sequence: cp.sequence, ...(cp.done === true ? { done: true } : {}), ...(finished.length ? { finished } : {}) });
      }
      return out;
    },
    async save(streamArn, shards) {
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ streamArn, savedAt: new Date().toISOString(), shards: [...shards] }, null, 1) + '\n');
      renameSync(tmp, file);
    },
  };
}

interface ShardCursor {
  iterator: string | undefined;
  done: boolean;
  /** The sequence number of the last record read from the shard: where to pick up if the iterator is lost. */
  last?: string;
}

/** A game whose records failed past the immediate retries: they wait here, in stream order, each with the shard it came from. */
interface Parked {
  readonly records: { readonly shard: string; readonly record: StreamRecordLike }[];
  attempts: number;
  nextAt: number;
}

/** The partition a record belongs to (the game, or the tournament): the unit whose records stay in order. */
const partitionOf = (r: StreamRecordLike): string => (r.dynamodb?.Keys as Record<string, { S?: string }> | undefined)?.['pk']?.S ?? '';
const sequenceOf = (r: StreamRecordLike): string => r.dynamodb?.SequenceNumber ?? '';
/** How long a wake() waits before its pass: writes that come together are read together. */
const WAKE_DELAY_MS = 5;
/** The first wait after a quiet pass that a wake asked for (doubled after each quiet pass). */
const WAKE_FOLLOW_UP_MS = 25;
/** GetRecords errors after which the iterator is dead but the shard is not: open it again. */
const LOST_ITERATOR = new Set(['TrimmedDataAccessException', 'ExpiredIteratorException']);
/** Stream sequence numbers are decimal strings of any length: compare them as numbers. */
const seqAtMost = (a: string, b: string): boolean => a.length < b.length || (a.length === b.length && a <= b);

/** A batch handed over, waiting for its barrier before its last record may be checkpointed. */
interface Handed {
  readonly shard: string;
  /** Its first record's sequence number (none when the batch was empty: a closed shard's end). */
  readonly first: string | undefined;
  readonly sequence: string;
  readonly done: boolean;
  /** The work of this batch and of everything handed over before it has finished: the checkpoint may pass it. */
  readonly passable: () => boolean;
  /** The work of this batch is settled and none of its records is parked: a restart need not hand it over again. */
  readonly skippable: () => boolean;
}

export class StreamPoller {
  private readonly streams: DynamoDBStreamsClient;
  private readonly cursors = new Map<string, ShardCursor>();
  /** Shards whose iterator was lost, with the last record read from each (opened again after it). */
  private readonly reopen = new Map<string, string | undefined>();
  private streamArn: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private started = false;
  /** A pass is under way. */
  private passing = false;
  /** A pass was asked for before the timer's (wake): the next one starts after WAKE_DELAY_MS. */
  private wakeAsked = false;
  /** The wait before the next pass: intervalMs, doubled after each quiet pass up to idleIntervalMs. */
  private wait: number;
  private stopped = false;
  private passWaiters: (() => void)[] = [];
  /** Games parked after failing past the immediate retries, by partition key; retried on every pass until they go through. */
  private readonly parked = new Map<string, Parked>();
  /** Stream records handed to onRecords since this poller started (a restart that resumes hands over only the new ones). */
  delivered = 0;
  /** Polling passes begun since this poller started. */
  passes = 0;
  /** The checkpoints as loaded and as advanced since; undefined until the first pass loads them. */
  private saved: Map<string, ShardCheckpoint> | undefined;
  private readonly handed: Handed[] = [];
  /**
   * Parked records handed over again (retryParked), outside the batch they were read in: per shard,
   * the first of them, until the work that hand-over set going has finished. The checkpoint does not
   * pass them before (a consumer killed meanwhile must read them again).
   */
  private readonly rehanded: { readonly firsts: ReadonlyMap<string, string>; readonly finished: () => boolean }[] = [];

  constructor(private readonly opts: StreamPollerOptions) {
    this.wait = opts.intervalMs ?? 200;
    this.streams = new DynamoDBStreamsClient({ endpoint: opts.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.tick();
  }

  private readonly tick = (): void => {
    if (this.stopped) return;
    this.timer = undefined;
    this.passing = true;
    this.passes++;
    this.wakeAsked = false;
    const before = this.delivered;
    this.running = this.pass()
      .catch((e) => this.opts.log?.(`[stream] poll failed: ${(e as Error).message}`))
      .finally(() => {
        this.passing = false;
        for (const w of this.passWaiters.splice(0)) w();
        if (this.stopped) return;
        // Quiet passes wait longer and longer (up to idleIntervalMs); a pass that handed records over starts the wait again.
        const interval = this.opts.intervalMs ?? 200;
        this.wait = this.delivered > before ? interval : Math.min(Math.max(interval, this.opts.idleIntervalMs ?? interval), this.wait * 2);
        this.timer = setTimeout(this.tick, this.wakeAsked ? WAKE_DELAY_MS : this.wait);
      });
  };

  /**
   * Something was written to the table (an append, say): pass again now rather than when the
   * timer says, or right after the pass under way (which may have read before the write).
   */
  wake(): void {
    if (this.stopped) return;
    // DynamoDB Local may show a write's records a moment after it answered: passes that find nothing
    // after a wake come again soon (doubling from WAKE_FOLLOW_UP_MS), not a whole interval later.
    this.wait = Math.min(this.wait, WAKE_FOLLOW_UP_MS);
    if (this.passing) {
      this.wakeAsked = true;
      return;
    }
    if (this.wakeAsked || !this.timer) return;
    this.wakeAsked = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.tick, WAKE_DELAY_MS);
  }

  /** Resolves after the next complete polling pass (everything written before the call has been handed over). */
  nextPass(): Promise<void> {
    const passed = new Promise<void>((r) => this.passWaiters.push(r));
    this.wake();
    return passed;
  }

  /**
   * Stops as a process killed between reading and checkpointing would: the pass under way
   * finishes handing its records over, and nothing more is saved (a restart reads them again).
   */
  async crash(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    // Whatever was handed over and not yet saved stays unsaved, even if stop() is called later.
    this.saved = undefined;
    for (const w of this.passWaiters.splice(0)) w();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    // Whatever has finished by now is kept; the rest is read again after the restart.
    await this.commit().catch((e) => this.opts.log?.(`[stream] saving the checkpoint failed: ${(e as Error).message}`));
    for (const w of this.passWaiters.splice(0)) w();
    this.streams.destroy();
  }

  private async arn(): Promise<string> {
    if (this.streamArn) return this.streamArn;
    const d = await this.opts.client.send(new DescribeTableCommand({ TableName: this.opts.tableName }));
    const arn = d.Table?.LatestStreamArn;
    if (!arn) throw new Error(`table ${this.opts.tableName} has no stream`);
    this.streamArn = arn;
    return arn;
  }

  private async shards(): Promise<Shard[]> {
    const StreamArn = await this.arn();
    const out: Shard[] = [];
    let start: string | undefined;
    do {
      const r = await this.streams.send(new DescribeStreamCommand({ StreamArn, ...(start ? { ExclusiveStartShardId: start } : {}) }));
      out.push(...(r.StreamDescription?.Shards ?? []));
      start = r.StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return out;
  }

  /** One pass over every shard, reading each to its current end. */
  private async pass(): Promise<void> {
    const shards = await this.shards();
    const StreamArn = await this.arn();
    if (!this.saved) this.saved = this.opts.checkpoints ? await this.opts.checkpoints.load(StreamArn) : new Map();
    await this.retryParked();
    const ids = new Set(shards.map((s) => s.ShardId!));
    for (const shard of shards) {
      const id = shard.ShardId!;
      // A child shard waits until its parent is read to the end (per-item order).
      const parent = shard.ParentShardId;
      if (parent && ids.has(parent) && !this.cursors.get(parent)?.done) continue;
      let cur = this.cursors.get(id);
      if (!cur) {
        cur = await this.openShard(StreamArn, id, this.reopen.get(id));
        this.reopen.delete(id);
        this.cursors.set(id, cur);
      }
      await this.drainShard(id, cur);
    }
    await this.commit();
  }

  /** Where a shard is read from: after its checkpoint, or from its beginning when it has none (or the checkpoint is no longer in the stream). */
  private async openShard(StreamArn: string, ShardId: string, lastRead?: string): Promise<ShardCursor> {
    const cp = this.saved?.get(ShardId);
    if (cp?.done) return { iterator: undefined, done: true };
    const after = lastRead ?? cp?.sequence;
    if (after !== undefined) {
      try {
        const it = await this.streams.send(
          new GetShardIteratorCommand({ StreamArn, ShardId, ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }),
        );
        return { iterator: it.ShardIterator, done: false, last: after };
      } catch (e) {
        // Trimmed past that point (24 h of retention): read what is left; the handlers are idempotent.
        this.opts.log?.(`[stream] shard ${ShardId} no longer holds record ${after} (${(e as Error).name}); reading the shard from its start`);
      }
    }
    const it = await this.streams.send(new GetShardIteratorCommand({ StreamArn, ShardId, ShardIteratorType: 'TRIM_HORIZON' }));
    return { iterator: it.ShardIterator, done: false };
  }

  private async drainShard(id: string, cur: ShardCursor): Promise<void> {
    while (!cur.done && cur.iterator && !this.stopped) {
      let r;
      try {
        r = await this.streams.send(new GetRecordsCommand({ ShardIterator: cur.iterator, Limit: 1000 }));
      } catch (e) {
        // An iterator the stream no longer honours (expired, or trimmed under it) would fail every
        // pass for good: drop it, and the next pass opens the shard again after the last record read.
        if (!LOST_ITERATOR.has((e as Error).name)) throw e;
        this.opts.log?.(`[stream] shard ${id}: ${(e as Error).name}; opening it again after the last record read`);
        this.reopen.set(id, cur.last);
        this.cursors.delete(id);
        return;
      }
      const records = r.Records ?? [];
      const barrier = this.opts.barrier;
      const before = barrier?.mark() ?? 0;
      let parkedNone = true;
      if (records.length) {
        // Records of batches a consumer before this one saw finished are read again, not handed over.
        const finished = this.saved?.get(id)?.finished ?? [];
        parkedNone = await this.deliver(
          id,
          records.filter((x) => !finished.some(([first, last]) => seqAtMost(first, sequenceOf(x)) && seqAtMost(sequenceOf(x), last))),
        );
        cur.last = sequenceOf(records[records.length - 1] as StreamRecordLike);
      }
      cur.iterator = r.NextShardIterator;
      if (!cur.iterator) cur.done = true;
      const last = records[records.length - 1]?.dynamodb?.SequenceNumber ?? this.saved?.get(id)?.sequence;
      if (this.opts.checkpoints && last !== undefined && (records.length || cur.done)) {
        const after = barrier?.mark() ?? 0;
        this.handed.push({
          shard: id,
          first: records[0]?.dynamodb?.SequenceNumber,
          sequence: last,
          done: cur.done,
          passable: barrier ? () => barrier.finished(0, after) : () => true,
          skippable: barrier ? () => parkedNone && barrier.settled(before, after) : () => parkedNone,
        });
        // Saved as the shard is read, not only when a pass ends: under steady writes a pass can last the whole run.
        await this.commit();
      }
      if (records.length === 0) break;
    }
  }

  /**
   * Saves, per shard, the newest batch that is passable and follows only passable batches, and the
   * later batches that are skippable (with those a consumer before this one saved, until
   * the checkpoint passes them).
   */
  private async commit(): Promise<void> {
    if (!this.opts.checkpoints || !this.saved) return;
    const blocked = new Set<string>();
    const finished = new Map<string, FinishedBatch[]>();
    let changed = false;
    const keep: Handed[] = [];
    for (const h of this.handed.splice(0)) {
      if (blocked.has(h.shard) || !h.passable() || this.holdsParked(h.shard, h.sequence)) {
        blocked.add(h.shard);
        keep.push(h);
        if (h.first !== undefined && h.skippable()) finished.set(h.shard, [...(finished.get(h.shard) ?? []), [h.first, h.sequence]]);
        continue;
      }
      this.saved.set(h.shard, { ...this.saved.get(h.shard), sequence: h.sequence, ...(h.done ? { done: true } : {}) });
      changed = true;
    }
    this.handed.push(...keep);
    for (const [shard, cp] of this.saved) {
      const seen = new Set<string>();
      const batches = [...(cp.finished ?? []), ...(finished.get(shard) ?? [])].filter(
        ([first, last]) => !seqAtMost(last, cp.sequence) && !seen.has(first) && seen.add(first),
      );
      if (JSON.stringify(batches) === JSON.stringify(cp.finished ?? [])) continue;
      const { finished: _passed, ...position } = cp;
      this.saved.set(shard, { ...position, ...(batches.length ? { finished: batches } : {}) });
      changed = true;
    }
    if (changed) await this.opts.checkpoints.save(await this.arn(), this.saved);
  }

  /**
   * Whether a record of this shard at or before `sequence` is parked, or was handed over again from
   * the parking by a hand-over whose work has not finished (so the shard's checkpoint may not pass it).
   */
  private holdsParked(shard: string, sequence: string): boolean {
    for (const p of this.parked.values()) for (const r of p.records) if (r.shard === shard && seqAtMost(sequenceOf(r.record), sequence)) return true;
    for (let i = this.rehanded.length - 1; i >= 0; i--) if (this.rehanded[i]!.finished()) this.rehanded.splice(i, 1);
    return this.rehanded.some(({ firsts }) => {
      const first = firsts.get(shard);
      return first !== undefined && seqAtMost(first, sequence);
    });
  }

  /** How many games are parked now (0 once every failure has gone through). */
  get parkedGames(): number {
    return this.parked.size;
  }

  /** Hands records over (retrying, then parking what keeps failing); says whether none of them was parked. */
  private async deliver(shard: string, records: readonly _Record[]): Promise<boolean> {
    this.delivered += records.length;
    let parkedNone = true;
    // A parked game's new records wait behind its failed one: a game's changes are never applied out of order.
    let batch: readonly StreamRecordLike[] = (records as readonly StreamRecordLike[]).filter((r) => {
      const p = this.parked.get(partitionOf(r));
      if (p) {
        p.records.push({ shard, record: r });
        parkedNone = false;
      }
      return !p;
    });
    for (let attempt = 0; batch.length; attempt++) {
      const { batchItemFailures } = await this.opts.onRecords(batch);
      if (!batchItemFailures.length) return parkedNone;
      const failed = new Set(batchItemFailures.map((f) => f.itemIdentifier));
      const first = batch.findIndex((r) => failed.has(sequenceOf(r)));
      if (first < 0) return parkedNone;
      if (attempt >= (this.opts.maxRetries ?? 3)) {
        // The records the last try did not report as failed went through; the failed ones are parked by game, never dropped.
        const now = Date.now();
        for (const r of batch.slice(first)) {
          const key = partitionOf(r);
          const p = this.parked.get(key);
          if (p) p.records.push({ shard, record: r });
          else if (failed.has(sequenceOf(r)))
            this.parked.set(key, { records: [{ shard, record: r }], attempts: attempt + 1, nextAt: now + this.backoff(attempt + 1) });
        }
        this.opts.log?.(`[stream] parked ${failed.size} record(s) after ${attempt + 1} attempts; retried until they go through: ${[...failed].join(', ')}`);
        return false;
      }
      batch = batch.slice(first);
      await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
    return parkedNone;
  }

  private backoff(attempts: number): number {
    return Math.min(this.opts.parkedBackoffMaxMs ?? 1000, 50 * 2 ** attempts);
  }

  /** Tries every parked game whose wait is over, its records in stream order; what still fails stays parked, from its first failure on. */
  private async retryParked(): Promise<void> {
    const now = Date.now();
    const due = [...this.parked].filter(([, p]) => p.nextAt <= now);
    if (due.length === 0) return;
    const batch = due.flatMap(([, p]) => p.records.map((r) => r.record));
    const barrier = this.opts.barrier;
    const before = barrier?.mark() ?? 0;
    const { batchItemFailures } = await this.opts.onRecords(batch);
    if (barrier) {
      const after = barrier.mark();
      const firsts = new Map<string, string>();
      for (const { shard, record } of due.flatMap(([, p]) => p.records)) {
        const seq = sequenceOf(record);
        const first = firsts.get(shard);
        if (first === undefined || seqAtMost(seq, first)) firsts.set(shard, seq);
      }
      this.rehanded.push({ firsts, finished: () => barrier.finished(before, after) });
    }
    const failed = new Set(batchItemFailures.map((f) => f.itemIdentifier));
    for (const [key, p] of due) {
      const first = p.records.findIndex((r) => failed.has(sequenceOf(r.record)));
      if (first < 0) {
        this.parked.delete(key);
        this.opts.log?.(`[stream] parked ${key || 'records'} went through after ${p.attempts + 1} attempts`);
        continue;
      }
      p.records.splice(0, first);
      p.attempts++;
      p.nextAt = Date.now() + this.backoff(p.attempts);
      // Said now and then, not on every try of a fault that lasts.
      if (p.attempts % 20 === 0) this.opts.log?.(`[stream] ${key} still failing after ${p.attempts} attempts`);
    }
  }

  /** Reads the whole stream again from its beginning into onRecords, once (a replay). */
  async replay(): Promise<number> {
    let n = 0;
    const shards = await this.shards();
    const order = topological(shards);
    for (const shard of order) {
      const it = await this.streams.send(
        new GetShardIteratorCommand({ StreamArn: await this.arn(), ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }),
      );
      let iterator = it.ShardIterator;
      while (iterator) {
        const r = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        const records = r.Records ?? [];
        if (records.length) {
          n += records.length;
          await this.deliver(shard.ShardId!, records);
        }
        iterator = records.length ? r.NextShardIterator : undefined;
      }
    }
    return n;
  }
}

function topological(shards: readonly Shard[]): Shard[] {
  const byId = new Map(shards.map((s) => [s.ShardId!, s]));
  const out: Shard[] = [];
  const seen = new Set<string>();
  const visit = (s: Shard) => {
    if (seen.has(s.ShardId!)) return;
    seen.add(s.ShardId!);
    const p = s.ParentShardId ? byId.get(s.ParentShardId) : undefined;
    if (p) visit(p);
    out.push(s);
  };
  shards.forEach(visit);
  return out;
}

/**
 * The positions of the two local consumers (the projector's and the notices'). A store given (tests,
 * the chaos run) keeps both, each under the stream ARN and the consumer's name. Otherwise a file each
 * in the data folder; none in --memory mode.
 */
function consumerCheckpoints(
  ctx: Pick<RuntimeContext, 'dataDir' | 'tableName'>,
  store: CheckpointStore | undefined,
): { readonly projector: CheckpointStore; readonly notices: CheckpointStore } | undefined {
  const keyed = (s: CheckpointStore, consumer: string): CheckpointStore => ({
    load: (arn) => s.load(`${arn} ${consumer}`),
    save: (arn, shards) => s.save(`${arn} ${consumer}`, shards),
  });
  if (store) return { projector: keyed(store, 'projector'), notices: keyed(store, 'notices') };
  if (!ctx.dataDir) return undefined;
  return {
    // The file of the single consumer there was before: a position its notices had been sent through.
    notices: fileCheckpoints(join(ctx.dataDir, `stream-checkpoint-${ctx.tableName}.json`)),
    // A data folder from before has none: the projector reads what the stream still holds once more (its writes are idempotent).
    projector: fileCheckpoints(join(ctx.dataDir, `stream-checkpoint-${ctx.tableName}-projector.json`)),
  };
}

/** The commands that write to the table (and so to its stream). */
const WRITES = /^(Put|Update|Delete|TransactWrite|BatchWrite)/;
/** The longest wait between two passes of a quiet stream, in the local runtime (whose own writes wake the consumers). */
const IDLE_INTERVAL_MS = 1000;
/** The longest the notices' consumer waits for the projector's first pass before it starts anyway. */
const NOTICES_HEAD_START_MS = 5000;
/** Names each runtime's wake-on-write middleware apart (a consumer started again after a kill adds its own). */
let consumersStarted = 0;

/** The local projector + notifier pipeline: what `npm start` runs next to the API. */
export interface LocalNotifications extends Stoppable {
  /** The projector: keeps the read models, and saves its position as soon as they are written. */
  readonly poller: StreamPoller;
  /** Queues the notices (and runs the tournament reactor); saves its position once their jobs have finished. */
  readonly noticePoller: StreamPoller;
  readonly queue: InProcessQueue;
  readonly notifier: Notifier;
  readonly readModels: ReadModelStore;
  readonly mailSink: MailSink | undefined;
  /** Waits until the stream has been read past everything written so far and every job ran. */
  settle(): Promise<void>;
  /**
   * Ends the poller and the notify queue as a kill would (no checkpoint saved, scheduled jobs
   * dropped), once the jobs running now have finished; then stops the rest (mail sink, digests).
   */
  crash(): Promise<void>;
  /** Local runtime HTTP hook: /local/mail. */
  handle(method: string, path: string): ReturnType<typeof mailHttp>;
}

export interface LocalNotificationsOptions {
  /** Where mail lands; default <dataDir>/mail, or a temporary folder in --memory mode. */
  readonly mailDir?: string;
  /** SMTP port of the sink (0: any free port). SMTP_URL in the environment bypasses the sink. */
  readonly smtpPort?: number;
  readonly retry?: RetryPolicy;
  readonly pollIntervalMs?: number;
  /** Scale for queue delays: milliseconds per second of SQS delay (default 1000). */
  readonly delayScaleMs?: number;
  readonly env?: Env;
  readonly clock?: Clock;
  readonly mailer?: Mailer;
  readonly webhooks?: WebhookTransport;
  /** Webhooks to plain http and private addresses (receivers on 127.0.0.1); default true here, never in AWS. */
  readonly allowPrivateWebhooks?: boolean;
  /** Seconds a channel may stay 'sending' before a restarted runtime takes it over (default NOTIFY_LEASE_SECONDS, else 90). */
  readonly leaseSeconds?: number;
  /** How often the daily digest sweep runs (default every minute; POST /local/clock also runs it). */
  readonly digestEveryMs?: number;
  /**
   * Where the stream checkpoints of both consumers are kept (default: a file each in the data folder;
   * none in --memory mode). The store must keep each key apart (each consumer saves under the stream
   * ARN and its own name): one fileCheckpoints holds a single key, so it cannot serve both.
   */
  readonly checkpoints?: CheckpointStore;
}

export async function startLocalNotifications(
  ctx: Pick<RuntimeContext, 'client' | 'endpoint' | 'tableName' | 'dataDir' | 'log' | 'provideMail' | 'afterClock'> & {
    url?: string;
    deps?: Pick<RuntimeContext['deps'], 'service' | 'engines' | 'clock'>;
  },
  opts: LocalNotificationsOptions = {},
): Promise<LocalNotifications> {
  // Local: webhooks may be plain http to 127.0.0.1 receivers (allowPrivateWebhooks below).
  const base = opts.env ?? process.env;
  // Links in local mail open this runtime's own game page unless APP_URL says otherwise.
  const env: Env = {
    ...base,
    ...((base['APP_URL'] ?? ctx.url) ? { APP_URL: base['APP_URL'] ?? ctx.url } : {}),
    AUTH_MODE: 'local',
  };
  const stops: (() => Promise<void>)[] = [];
  try {
    let mailSink: MailSink | undefined;
    let mailer = opts.mailer;
    if (!mailer) {
      const from = env['MAIL_FROM'] ?? 'Fieldpost <turns@fieldpost.local>';
      if (env['SMTP_URL']) {
        ctx.log(`Mail:           sent over SMTP to ${env['SMTP_URL']}`);
        const relay = smtpMailerFromUrl(env['SMTP_URL'], from);
        stops.push(async () => relay.close());
        mailer = relay;
      } else {
        const throwaway = !opts.mailDir && !ctx.dataDir;
        const dir = opts.mailDir ?? (ctx.dataDir ? join(ctx.dataDir, 'mail') : mkdtempSync(join(tmpdir(), 'fieldpost-mail-')));
        // --memory keeps nothing: its mail folder goes when the runtime stops.
        if (throwaway) stops.push(async () => rmSync(dir, { recursive: true, force: true }));
        mailSink = await startMailSink({ dir, ...(opts.smtpPort !== undefined ? { port: opts.smtpPort } : {}) });
        stops.push(() => mailSink!.stop());
        const smtp = new SmtpMailer({ host: '127.0.0.1', port: mailSink.port }, from);
        stops.push(async () => smtp.close());
        mailer = smtp;
      }
    }
    const retry = opts.retry ?? retryPolicyFromEnv(env, 'inline');
    const notifierRef: { current?: Notifier } = {};
    // A job that leaves its notice 'retrying' may have left it held in its lane, to go out when an earlier
    // notice's job hands it on: the queue then counts its batch as unsettled (read again after a restart).
    const queue = new InProcessQueue(
      (job) => notifierRef.current!.handle(job).then((results) => ({ waiting: results.some((r) => r.outcome === 'retrying') })),
      {
        delayScaleMs: opts.delayScaleMs ?? 1000,
        // Jobs that never sleep (one attempt each, as in AWS) run 16 at once, like a bounded Lambda concurrency;
        // 4 while the projector writes a batch of read models (queue.yieldWhile below).
        ...(retry.mode === 'requeue' ? { concurrency: 16, yieldingConcurrency: 4 } : {}),
        onError: (e, job) => ctx.log(`[notify] ${job.notice.kind} for ${job.notice.player} failed: ${(e as Error).message}`),
      },
    );
    const notifier = createNotifier({
      client: ctx.client,
      tableName: ctx.tableName,
      env,
      retry,
      queue,
      mailer: mailer!,
      allowPrivateWebhooks: opts.allowPrivateWebhooks ?? true,
      ...(opts.leaseSeconds !== undefined ? { leaseSeconds: opts.leaseSeconds } : {}),
      // The queue is in memory: a notice read again after a restart resumes the retry the last run had scheduled.
      resumeRetriesFrom: (opts.clock ?? systemClock).now(),
      // With the runtime's game service at hand, "your move" mail carries the board picture.
      ...(ctx.deps ? { boardPicture: boardPictureFrom(ctx.deps.service, (msg, data) => ctx.log(`[notify] ${msg} ${JSON.stringify(data)}`)) } : {}),
      ...(opts.webhooks ? { webhooks: opts.webhooks } : {}),
      ...(opts.clock ? { clock: opts.clock } : {}),
    });
    notifierRef.current = notifier;
    // The API's verification mail goes through the same mailer, with links to the same place.
    ctx.provideMail?.({ mailer: mailer!, appUrl: env['APP_URL'] ?? 'http://127.0.0.1' });
    const readModels = new ReadModelStore(ctx.client, ctx.tableName);
    // Tournaments follow the same stream: games made for pairings, results, ratings, the director's notices.
    const deps = ctx.deps;
    const reactor = deps
      ? {
          world: createTournamentWorld({ client: ctx.client, tableName: ctx.tableName, engines: deps.engines, clock: deps.clock, games: deps.service }),
          games: deps.service,
          engines: deps.engines,
          clock: deps.clock,
          queue,
          log: (msg: string) => ctx.log(msg),
        }
      : undefined;
    const checkpoints = consumerCheckpoints(ctx, opts.checkpoints);
    const logAs =
      (consumer: string) =>
      (level: 'info' | 'error', msg: string, data?: Record<string, unknown>): void =>
        ctx.log(`[${consumer}] ${level}: ${msg} ${JSON.stringify(data ?? {})}`);
    const [projectorLog, noticesLog] = [logAs('projector'), logAs('notices')];
    // Two consumers of the stream, each with its own position, as in AWS the projector's event source
    // mapping and the notify queue each keep theirs. The read models' position moves as soon as they
    // are written; a restart reads again only what the notices' consumer had not seen through.
    const intervalMs = opts.pollIntervalMs ?? 250;
    const stream = {
      client: ctx.client,
      endpoint: ctx.endpoint,
      tableName: ctx.tableName,
      intervalMs,
      idleIntervalMs: Math.max(intervalMs, IDLE_INTERVAL_MS),
      log: ctx.log,
    };
    const poller = new StreamPoller({
      ...stream,
      ...(checkpoints ? { checkpoints: checkpoints.projector } : {}),
      // The read models go first: the notify jobs make way while a batch of them is written.
      onRecords: (records) => queue.yieldWhile(() => processStreamRecords(records, { readModels, log: projectorLog })),
    });
    const noticePoller = new StreamPoller({
      ...stream,
      ...(checkpoints ? { checkpoints: checkpoints.notices } : {}),
      // A record is done once the notices it queued are sent: the in-process queue does not survive a crash.
      barrier: {
        mark: () => queue.mark(),
        finished: (after, through) => queue.finishedBetween(after, through),
        settled: (after, through) => queue.settledBetween(after, through),
      },
      // The notices and the tournament reactor (which queues the director's notices too) read the same
      // records and depend on nothing of each other's: side by side. The jobs a batch queues are its own
      // (the barrier's marks), even when a job's write woke the pass that read it.
      onRecords: (records) =>
        queue.outsideJobs(async () => {
          const [noticed, reacted] = await Promise.all([
            processStreamRecords(records, { queue, log: noticesLog }),
            reactor ? processTournamentRecords(records, reactor) : { batchItemFailures: [] },
          ]);
          return { batchItemFailures: [...noticed.batchItemFailures, ...reacted.batchItemFailures] };
        }),
    });
    // Every write this runtime makes wakes both consumers (the timer, backing off while the stream is
    // quiet, is only the fallback for writers elsewhere): a move reaches the read models without
    // waiting for the next tick, and an idle runtime polls DynamoDB Local once every idle interval.
    const wakeOnWrite = `wakeStreamConsumers${++consumersStarted}`;
    ctx.client.middlewareStack.add(
      (next, context) => async (args) => {
        try {
          return await next(args);
        } finally {
          if (WRITES.test(context.commandName ?? '')) {
            poller.wake();
            noticePoller.wake();
          }
        }
      },
      { step: 'initialize', name: wakeOnWrite },
    );
    stops.push(async () => void ctx.client.middlewareStack.remove(wakeOnWrite));
    poller.start();
    // The read models first: after a restart the notices' consumer hands its unfinished batches over again
    // (a burst of notify jobs on the same DynamoDB Local), so it starts once the projector's first pass
    // has read on from its checkpoint, or after NOTICES_HEAD_START_MS when that pass lasts (steady writes).
    const headStart = setTimeout(() => noticePoller.start(), NOTICES_HEAD_START_MS);
    void poller.nextPass().then(() => {
      clearTimeout(headStart);
      noticePoller.start();
    });
    stops.push(async () => clearTimeout(headStart));
    stops.push(async () => {
      await Promise.all([poller.stop(), noticePoller.stop()]);
      queue.stop();
    });
    // The daily digest: the same sweep as the hourly AWS rule runs (handlers/digest.ts), on a timer and after each move of the clock.
    const digests = digestSweep({
      client: ctx.client,
      tableName: ctx.tableName,
      mailer: mailer!,
      clock: opts.clock ?? ctx.deps?.clock ?? systemClock,
      appUrl: env['APP_URL'] ?? 'http://127.0.0.1',
      ...(ctx.deps ? { boardPicture: drawBoard(ctx.deps.service, (msg, data) => ctx.log(`[digest] ${msg} ${JSON.stringify(data)}`)) } : {}),
      log: ctx.log,
    });
    let digesting: Promise<unknown> = Promise.resolve();
    const runDigests = () =>
      (digesting = digesting.then(() =>
        digests().then(
          (sent) => sent.forEach((d) => ctx.log(`[digest] ${d.player}: ${d.games} game(s) for ${d.day}`)),
          (e: unknown) => ctx.log(`[digest] sweep failed: ${(e as Error).message}`),
        ),
      ));
    const digestTimer = setInterval(() => void runDigests(), opts.digestEveryMs ?? 60_000);
    ctx.afterClock?.(runDigests);
    stops.push(async () => {
      clearInterval(digestTimer);
      await digesting;
    });
    if (mailSink) ctx.log(`Mail sink:      smtp://127.0.0.1:${mailSink.port}, messages saved as .eml in ${mailSink.dir} (listed at <API>/local/mail)`);
    ctx.log('Stream:         projector and notifier follow the table stream (inbox, lobby, "your turn" mail and webhooks)');
    return {
      name: 'stream poller and mail sink',
      poller,
      noticePoller,
      queue,
      notifier,
      readModels,
      mailSink,
      async settle() {
        await Promise.all([poller.nextPass(), noticePoller.nextPass()]);
        await Promise.all([poller.nextPass(), noticePoller.nextPass()]);
        await queue.idle();
      },
      handle: (method, path) => (mailSink ? mailHttp(mailSink.dir, method, path) : undefined),
      async crash() {
        await Promise.all([poller.crash(), noticePoller.crash()]);
        queue.stop();
        await queue.idle();
        for (const s of stops.splice(0).reverse()) await s();
      },
      async stop() {
        for (const s of stops.splice(0).reverse()) await s();
      },
    };
  } catch (e) {
    for (const s of stops.splice(0).reverse()) await s().catch(() => undefined);
    throw e;
  }
}

/** The runtime extension `npm start` runs: mail sink + stream poller → projector → notifier. */
export const notificationsExtension = (ctx: RuntimeContext): Promise<LocalNotifications> => startLocalNotifications(ctx);
