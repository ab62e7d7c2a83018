import { decideNotices } from '../notify/decide.js';
import type { NotifyQueue } from '../notify/queue.js';
import type { ReadModelStore } from './read-model-store.js';
import { headChange, isHeadRecord, isQuietRecord, type HeadChange, type StreamRecordLike } from './stream-image.js';

/**
 * The projector Lambda does both halves (read models, then notices on SQS). The local runtime
 * runs them as two consumers of the stream, each with its own position (functions/local): its
 * notify queue lives in memory, so the notices' position waits for their jobs, and the read
 * models' position need not.
 */
export interface StreamDeps {
  /** Absent: another consumer of the stream keeps the read models. */
  readonly readModels?: Pick<ReadModelStore, 'apply'>;
  /** Absent: another consumer of the stream queues the notices. */
  readonly queue?: NotifyQueue;
  readonly log?: (level: 'info' | 'error', msg: string, data?: Record<string, unknown>) => void;
}

export interface BatchResult {
  readonly batchItemFailures: { itemIdentifier: string }[];
}

export interface RecordOutcome {
  readonly sequence: string;
  readonly gameId?: string;
  /** 'elsewhere': this run keeps no read models (StreamDeps.readModels absent). */
  readonly readModels: 'applied' | 'stale' | 'ignored' | 'failed' | 'skipped' | 'elsewhere';
  readonly notices: number;
}

const defaultLog: NonNullable<StreamDeps['log']> = (level, msg, data) =>
  (level === 'error' ? console.error : console.log)(JSON.stringify({ level, msg, ...data }));

/** How many games' records a batch works on at once (each game's own records stay in order). */
const GAMES_AT_ONCE = 8;

/**
 * One batch of stream records (Lambda or the local poller). Only game heads matter (HEAD, or a HEAD# item of the append layout, unless quiet): each
 * is one append, its old and new GameSummary. For each game: update the read models once from
 * its records' summaries (a no-op when they already hold the newest version or a newer one),
 * then enqueue the notices each change calls for, in order. Notices are enqueued even for a stale record, because an earlier try may have
 * updated the read models and then failed to enqueue; the notifier's ledger drops repeats.
 *
 * Games are independent: up to GAMES_AT_ONCE games are worked on together, each game's
 * records one after another in stream order. A record that fails is reported in
 * batchItemFailures, and so are the later records of the same game in this batch (they are
 * not attempted), so a game's changes are never applied out of order; other games' records
 * still go through. Outcomes and failures are listed in the batch's order.
 */
export async function processStreamRecords(records: readonly StreamRecordLike[], deps: StreamDeps): Promise<BatchResult & { outcomes: RecordOutcome[] }> {
  const log = deps.log ?? defaultLog;
  const outcomes: RecordOutcome[] = new Array<RecordOutcome>(records.length);
  const failed = new Set<number>();
  /** Record indexes by game partition, in stream order. */
  const games = new Map<string, number[]>();
  records.forEach((r, i) => {
    const sequence = r.dynamodb?.SequenceNumber ?? r.eventID ?? '';
    // A quiet append (one no read model shows) calls for no read-model write and no notice.
    if (!isHeadRecord(r) || isQuietRecord(r)) {
      outcomes[i] = { sequence, readModels: 'ignored', notices: 0 };
      return;
    }
    const pk = (r.dynamodb?.Keys as Record<string, { S?: string }> | undefined)?.['pk']?.S ?? '';
    const list = games.get(pk);
    if (list) list.push(i);
    else games.set(pk, [i]);
  });

  const oneGame = async (pk: string, indexes: readonly number[]) => {
    const sequenceAt = (i: number) => records[i]!.dynamodb?.SequenceNumber ?? records[i]!.eventID ?? '';
    /** Fails record `at` (of `indexes`) and skips the game's later records. */
    const breakAt = (at: number, e: unknown) => {
      indexes.slice(at).forEach((i, n) => {
        failed.add(i);
        outcomes[i] = { sequence: sequenceAt(i), readModels: n === 0 ? 'failed' : 'skipped', notices: 0 };
      });
      log('error', 'stream record failed', { sequence: sequenceAt(indexes[at]!), pk, error: (e as Error).message });
    };
    // Read every change first: a malformed record ends the run the read models are written from.
    const changes: { at: number; change: HeadChange }[] = [];
    let broken: { at: number; error: unknown } | undefined;
    for (const [at, i] of indexes.entries()) {
      try {
        const change = headChange(records[i]!);
        if (change) changes.push({ at, change });
        else outcomes[i] = { sequence: sequenceAt(i), readModels: 'ignored', notices: 0 };
      } catch (e) {
        broken = { at, error: e };
        break;
      }
    }
    const last = changes.at(-1);
    if (last) {
      let applied: RecordOutcome['readModels'] = 'elsewhere';
      try {
        // The run's summaries folded into one write of the read models (ReadModelStore.apply).
        if (deps.readModels)
          applied = await deps.readModels.apply(
            last.change.next,
            changes.slice(0, -1).map((c) => c.change.next),
          );
      } catch (e) {
        return breakAt(changes[0]!.at, e);
      }
      // Then each record's notices, in stream order.
      for (const { at, change } of changes) {
        const i = indexes[at]!;
        try {
          const notices = deps.queue ? decideNotices(change.old, change.next) : [];
          if (deps.queue && notices.length) await deps.queue.enqueue(notices.map((notice) => ({ notice })));
          outcomes[i] = { sequence: sequenceAt(i), gameId: change.gameId, readModels: applied, notices: notices.length };
        } catch (e) {
          return breakAt(at, e);
        }
      }
    }
    if (broken) breakAt(broken.at, broken.error);
  };
  const queue = [...games.entries()];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await oneGame(...next);
  };
  await Promise.all(Array.from({ length: Math.min(GAMES_AT_ONCE, queue.length) }, worker));
  const batchItemFailures = [...failed].sort((x, y) => x - y).map((i) => ({ itemIdentifier: outcomes[i]!.sequence }));
  return { batchItemFailures, outcomes };
}
