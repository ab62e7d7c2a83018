import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { StreamPoller, type CheckpointStore, type ShardCheckpoint } from '../../functions/local/stream-poller.js';
import { freshTable } from '../support/dynamo.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 18 "Faults survived": a killed stream consumer restarts from its last checkpoint, so the
 * checkpoint must move while the table is being written. Before, the local poller saved it only
 * when a pass had read every shard to its end, and under steady writes (the chaos run's load) a
 * pass never ended: 5 saves in a 400-command run, and each restart read ~1,000 records again.
 * Here every batch handed over writes one more item, so the shard never runs dry while `writing`.
 */
let client: DynamoDBClient;
let tableName: string;
let endpoint: string;
let poller: StreamPoller | undefined;
let writing = true;
let written = 0;
const saves: ShardCheckpoint[][] = [];
const saved = new Map<string, Map<string, ShardCheckpoint>>();
const checkpoints: CheckpointStore = {
  load: async (arn) => new Map(saved.get(arn) ?? []),
  save: async (arn, shards) => {
    saved.set(arn, new Map(shards));
    saves.push([...shards.values()]);
  },
};

const put = () =>
  client.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: `STEADY#${++written}` }, sk: { S: 'ITEM' }, type: { S: 'steady' } } }));

beforeAll(async () => {
  ({ client, tableName, endpoint } = await freshTable('steady'));
});

afterAll(async () => {
  writing = false;
  await poller?.stop();
});

describe('stream checkpoint under steady writes', () => {
  it('is saved while the table is still being written, before any pass has reached the end of the shard', async () => {
    let passEnded = false;
    poller = new StreamPoller({
      client,
      endpoint,
      tableName,
      intervalMs: 50,
      checkpoints,
      onRecords: async () => {
        if (writing) await put();
        return { batchItemFailures: [] };
      },
    });
    await put();
    poller.start();
    void poller.nextPass().then(() => (passEnded = true));
    const first = await waitFor('a checkpoint saved while writes go on', async () => saves[0], 20_000);
    // Still writing, and the first pass has not ended: the save came from a batch, not from the end of a pass.
    expect(passEnded).toBe(false);
    expect(writing).toBe(true);
    expect(first.length).toBe(1);
    expect(first[0]!.sequence).toMatch(/^\d+$/);
    // It keeps moving with the writes.
    await waitFor('a later checkpoint', async () => (saves.length >= 3 ? true : undefined), 20_000);
    writing = false;
    const seqs = saves.map((s) => BigInt(s[0]!.sequence));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]! >= seqs[i - 1]!).toBe(true);
    expect(seqs[seqs.length - 1]! > seqs[0]!).toBe(true);
  });
});
