import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { StreamPoller } from '../../functions/local/stream-poller.js';
import type { StreamRecordLike } from '../../functions/projections/stream-image.js';
import { freshTable } from '../support/dynamo.js';
import { waitFor } from '../support/wait.js';
import { heldBarrier, memoryCheckpoints } from './support.js';

/**
 * Issue 18: the notices' consumer saves a record as done only once the work its batch set going
 * has finished (its queue lives in memory). A parked game's records go through later, handed over
 * again on a later pass, outside the batch they were read in: the checkpoint passed them as soon
 * as they left the parking, while the work of that later hand-over (a webhook retry during an
 * outage) was still running, and a consumer killed then never read them again.
 */
let client: DynamoDBClient;
let tableName: string;
let endpoint: string;
const checkpoints = memoryCheckpoints();
const running: StreamPoller[] = [];

const put = (sk: string) => client.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: 'GAME#g' }, sk: { S: sk } } }));
const skOf = (r: StreamRecordLike) => (r.dynamodb?.Keys?.['sk'] as { S?: string } | undefined)?.S ?? '';
const sequenceOf = (r: StreamRecordLike) => r.dynamodb?.SequenceNumber ?? '';

/** A consumer whose hand-overs (numbered from 1) set going work that is unfinished while `held` has their number; `failing` records fail. */
function consumer(held: Set<number>, failing: Set<string>) {
  const handed: { n: number; sks: string[] }[] = [];
  const sequences = new Map<string, string>();
  let batches = 0;
  const poller = new StreamPoller({
    client,
    endpoint,
    tableName,
    intervalMs: 50,
    maxRetries: 0,
    parkedBackoffMaxMs: 100,
    checkpoints: checkpoints.store,
    barrier: heldBarrier(held, () => batches),
    onRecords: async (records) => {
      const n = ++batches;
      handed.push({ n, sks: records.map(skOf) });
      records.forEach((r) => sequences.set(skOf(r), sequenceOf(r)));
      return { batchItemFailures: records.filter((r) => failing.has(skOf(r))).map((r) => ({ itemIdentifier: sequenceOf(r) })) };
    },
  });
  running.push(poller);
  poller.start();
  return { poller, handed, sequences };
}

beforeAll(async () => {
  ({ client, tableName, endpoint } = await freshTable('parked-checkpoint'));
});

afterAll(async () => {
  for (const p of running) await p.stop();
});

describe('a parked game that goes through later', () => {
  it('is not checkpointed until the work of the hand-over that took it through has finished', async () => {
    const held = new Set<number>();
    const failing = new Set(['HEAD#1']);
    const first = consumer(held, failing);
    await put('HEAD#1');
    await waitFor('HEAD#1 parked', async () => (first.poller.parkedGames === 1 ? true : undefined));
    // The game's next record waits behind the parked one.
    await put('HEAD#2');
    await waitFor('HEAD#2 read and parked behind HEAD#1', async () => (first.poller.delivered === 2 ? true : undefined));
    // The fault heals: the parked records go through in a later hand-over, whose work (a retry, say) goes on.
    held.add(first.handed.length + 1);
    failing.clear();
    await waitFor('the parked game through', async () => (first.poller.parkedGames === 0 ? true : undefined));
    const through = first.handed.find((h) => h.sks.includes('HEAD#2'))!;
    expect(through.sks).toEqual(['HEAD#1', 'HEAD#2']);
    expect(held.has(through.n)).toBe(true);
    // A few passes later the checkpoint has still not passed HEAD#1, whose work is unfinished.
    for (let i = 0; i < 3; i++) await first.poller.nextPass();
    const cp = checkpoints.first();
    expect(cp === undefined || BigInt(cp.sequence) < BigInt(first.sequences.get('HEAD#1')!)).toBe(true);
    await first.poller.crash();

    // Killed with that work unfinished: the next consumer hands both records over again.
    const second = consumer(new Set(), new Set());
    await waitFor('handed over again', async () => (second.handed.some((h) => h.sks.includes('HEAD#2')) ? true : undefined));
    expect(second.handed.flatMap((h) => h.sks)).toEqual(['HEAD#1', 'HEAD#2']);
  });
});
