import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { StreamPoller } from '../../functions/local/stream-poller.js';
import type { StreamRecordLike } from '../../functions/projections/stream-image.js';
import { freshTable } from '../support/dynamo.js';
import { waitFor } from '../support/wait.js';
import { heldBarrier, memoryCheckpoints } from './support.js';

/**
 * Issue 18 "Faults survived": the local notices' consumer checkpoints a record only once the notify
 * jobs of its batch and of every batch before it have finished (its queue lives in memory). One
 * job that takes long (a webhook retry due hours later) held the checkpoint back, and a consumer
 * killed then read again, and queued again, every notice handed over since: thousands of jobs in
 * the chaos run, on a queue already behind. Now the batches after the checkpoint whose own jobs
 * have finished are saved with it, and a restart reads them again without handing them over.
 */
let client: DynamoDBClient;
let tableName: string;
let endpoint: string;
const checkpoints = memoryCheckpoints();
const running: StreamPoller[] = [];

const put = (id: string) => client.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: `ITEM#${id}` }, sk: { S: 'ITEM' } } }));
const idOf = (r: StreamRecordLike) => (r.dynamodb?.Keys?.['pk'] as { S?: string } | undefined)?.S?.slice('ITEM#'.length) ?? '';

/** A consumer whose batch number n (from 1) sets going work that is unfinished while `held` has n. */
function consumer(held: Set<number>): { poller: StreamPoller; handed: string[] } {
  const handed: string[] = [];
  let batches = 0;
  const poller = new StreamPoller({
    client,
    endpoint,
    tableName,
    intervalMs: 50,
    checkpoints: checkpoints.store,
    barrier: heldBarrier(held, () => batches),
    onRecords: async (records) => {
      batches++;
      handed.push(...records.map(idOf));
      return { batchItemFailures: [] };
    },
  });
  running.push(poller);
  poller.start();
  return { poller, handed };
}

beforeAll(async () => {
  ({ client, tableName, endpoint } = await freshTable('finished'));
});

afterAll(async () => {
  for (const p of running) await p.stop();
});

describe('stream checkpoint with finished batches past it', () => {
  it('a restart hands over again only the batches whose work had not finished', async () => {
    const first = consumer(new Set([2]));
    // Four batches: the second one's work stays unfinished, the first and the two after the second finish.
    for (const id of ['a', 'b', 'c', 'd']) {
      await put(id);
      await waitFor(`${id} handed over`, async () => (first.handed.includes(id) ? true : undefined));
    }
    const checkpoint = checkpoints.first;
    const held = await waitFor('the later batches saved as finished', async () => {
      const cp = checkpoint();
      return cp?.finished?.length === 2 ? cp : undefined;
    });
    // The checkpoint itself is a's: it has not passed b, whose work is unfinished.
    expect(held.finished!.map(([from, to]) => BigInt(from) > BigInt(held.sequence) && from === to)).toEqual([true, true]);
    await first.poller.crash();

    // Nothing held any more: the new consumer hands over b again, not c and d, and then checkpoints past d.
    const second = consumer(new Set());
    await second.poller.nextPass();
    await second.poller.nextPass();
    expect(second.handed).toEqual(['b']);
    expect(second.poller.delivered).toBe(1);
    const passed = checkpoint();
    expect(passed?.finished).toBeUndefined();
    expect(BigInt(passed!.sequence)).toBe(BigInt(held.finished![1]![1]));
    await put('e');
    await waitFor('e handed over', async () => (second.handed.includes('e') ? true : undefined));
    expect(second.handed).toEqual(['b', 'e']);
  });
});
