import { GetRecordsCommand, GetShardIteratorCommand, type DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { object, string, type Infer } from '../guards.js';
import { isHeadRecord, type StreamRecordLike } from './stream-image.js';
import type { BatchResult } from './stream.js';

/**
 * The repair of stream batches the projector's event source mapping gave up on (issue 18).
 *
 * After its retries (bisected down to the failing record) Lambda sends the batch's place in the
 * stream to the mapping's on-failure queue, not the records, and moves on. A game whose LAST
 * record was given up on would keep a stale read model for good (nothing newer comes to
 * overwrite it) and its notices would never go out. The projector therefore also consumes that
 * queue: each message is read back from the stream (which keeps records 24 hours) and the same
 * batch code runs on it again. What still fails throws, so SQS retries the message later, and
 * after its receives it lands in the parked stream-failure queue, whose depth is alarmed
 * (then `npm run rebuild-read-models` rebuilds everything from the events).
 *
 * Repeating a batch is safe: read models take only a newer version, and the notifier's ledger
 * drops a notice already sent.
 */

/** The on-failure record Lambda writes for a DynamoDB stream batch (the fields the repair reads). */
export const streamFailureSchema = object({
  DDBStreamBatchInfo: object({
    shardId: string({ min: 1 }),
    startSequenceNumber: string({ pattern: /^[0-9]+$/ }),
    endSequenceNumber: string({ pattern: /^[0-9]+$/ }),
    streamArn: string({ min: 1 }),
  }),
});
export type StreamFailure = Infer<typeof streamFailureSchema>;

/** Stream sequence numbers are decimal strings of any length: compare them as numbers. */
const after = (a: string, b: string): boolean => a.length > b.length || (a.length === b.length && a > b);

/**
 * The records of the failed batch, read back from the stream, keeping only game HEADs (the same
 * filter as the mapping's: the projector never looks at events or the dice seed).
 */
export async function readFailedBatch(streams: Pick<DynamoDBStreamsClient, 'send'>, failure: StreamFailure): Promise<StreamRecordLike[]> {
  const { shardId, startSequenceNumber, endSequenceNumber, streamArn } = failure.DDBStreamBatchInfo;
  const it = await streams.send(
    new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: startSequenceNumber }),
  );
  const out: StreamRecordLike[] = [];
  let iterator = it.ShardIterator;
  // A shard still open answers empty pages at its end; a few in a row mean nothing more is there yet.
  for (let empty = 0; iterator && empty < 3;) {
    const r = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
    const records = (r.Records ?? []) as StreamRecordLike[];
    empty = records.length ? 0 : empty + 1;
    for (const record of records) {
      const sequence = record.dynamodb?.SequenceNumber ?? '';
      if (after(sequence, endSequenceNumber)) return out;
      if (isHeadRecord(record) && (record.eventName === 'INSERT' || record.eventName === 'MODIFY')) out.push(record);
      if (sequence === endSequenceNumber) return out;
    }
    iterator = r.NextShardIterator;
  }
  return out;
}

/** Reads a failed batch back and runs it again; throws while any of its records still fails. */
export async function repairStreamFailure(
  streams: Pick<DynamoDBStreamsClient, 'send'>,
  failure: StreamFailure,
  process: (records: readonly StreamRecordLike[]) => Promise<BatchResult>,
): Promise<{ records: number }> {
  const records = await readFailedBatch(streams, failure);
  const { batchItemFailures } = records.length ? await process(records) : { batchItemFailures: [] };
  if (batchItemFailures.length)
    throw new Error(`${batchItemFailures.length} of ${records.length} record(s) still fail: ${batchItemFailures.map((f) => f.itemIdentifier).join(', ')}`);
  return { records: records.length };
}
