import { decideNotices } from '../notify/decide.js';
import type { NotifyQueue } from '../notify/queue.js';
import type { ReadModelStore } from './read-model-store.js';
import { headChange, isHeadRecord, type StreamRecordLike } from './stream-image.js';

export interface StreamDeps {
  readonly readModels: Pick<ReadModelStore, 'apply'>;
  readonly queue: NotifyQueue;
  readonly log?: (level: 'info' | 'error', msg: string, data?: Record<string, unknown>) => void;
}

export interface BatchResult {
  readonly batchItemFailures: { itemIdentifier: string }[];
}

export interface RecordOutcome {
  readonly sequence: string;
  readonly gameId?: string;
  readonly readModels: 'applied' | 'stale' | 'ignored' | 'failed' | 'skipped';
  readonly notices: number;
}

const defaultLog: NonNullable<StreamDeps['log']> = (level, msg, data) =>
  (level === 'error' ? console.error : console.log)(JSON.stringify({ level, msg, ...data }));

/**
 * One batch of stream records (Lambda or the local poller). Only HEAD records matter: each
 * is one append, its old and new GameSummary. For each: update the read models (a no-op
 * when they already hold this version or a newer one), then enqueue the notices the change
 * calls for. Notices are enqueued even for a stale record, because an earlier try may have
 * updated the read models and then failed to enqueue; the notifier's ledger drops repeats.
 *
 * A record that fails is reported in batchItemFailures, and so are the later records of
 * the same game in this batch (they are not attempted), so a game's changes are never
 * applied out of order; other games' records still go through.
 */
export async function processStreamRecords(records: readonly StreamRecordLike[], deps: StreamDeps): Promise<BatchResult & { outcomes: RecordOutcome[] }> {
  const log = deps.log ?? defaultLog;
  const failedGames = new Set<string>();
  const failures: { itemIdentifier: string }[] = [];
  const outcomes: RecordOutcome[] = [];
  for (const r of records) {
    const sequence = r.dynamodb?.SequenceNumber ?? r.eventID ?? '';
    if (!isHeadRecord(r)) {
      outcomes.push({ sequence, readModels: 'ignored', notices: 0 });
      continue;
    }
    const pk = (r.dynamodb?.Keys as Record<string, { S?: string }> | undefined)?.['pk']?.S ?? '';
    if (failedGames.has(pk)) {
      failures.push({ itemIdentifier: sequence });
      outcomes.push({ sequence, readModels: 'skipped', notices: 0 });
      continue;
    }
    try {
      const change = headChange(r);
      if (!change) {
        outcomes.push({ sequence, readModels: 'ignored', notices: 0 });
        continue;
      }
      const applied = await deps.readModels.apply(change.next);
      const notices = decideNotices(change.old, change.next);
      if (notices.length) await deps.queue.enqueue(notices.map((notice) => ({ notice })));
      outcomes.push({ sequence, gameId: change.gameId, readModels: applied, notices: notices.length });
    } catch (e) {
      failedGames.add(pk);
      failures.push({ itemIdentifier: sequence });
      outcomes.push({ sequence, readModels: 'failed', notices: 0 });
      log('error', 'stream record failed', { sequence, pk, error: (e as Error).message });
    }
  }
  return { batchItemFailures: failures, outcomes };
}
