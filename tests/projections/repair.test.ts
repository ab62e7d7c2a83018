import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, GetRecordsCommand, GetShardIteratorCommand, type DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { SQSEvent } from 'aws-lambda';
import { createProjectorHandler } from '../../functions/handlers/projector.js';
import type { NotifyJob } from '../../functions/notify/decide.js';
import { ReadModelStore } from '../../functions/projections/read-model-store.js';
import { readFailedBatch, streamFailureSchema, type StreamFailure } from '../../functions/projections/repair.js';
import { headChange } from '../../functions/projections/stream-image.js';
import type { GameService } from '../../functions/app/game-service.js';
import { freshTable } from '../support/dynamo.js';
import { cid, faultyReadModels, playTurns, readModelsEqualRebuild, service, streamsClient } from './support.js';

/**
 * Issue 18, the AWS path: the projector's event source mapping bisects a failing batch, retries,
 * then sends the batch's place in the stream to its on-failure queue and moves on. The projector
 * consumes that queue too (functions/projections/repair.ts): it reads the batch back from the
 * stream and runs it again, so a game whose last record was given up on does not keep a stale
 * read model. Here the live projector never saw the game (as if every batch of it was given up
 * on); the on-failure messages are made as Lambda makes them, from the DynamoDB Local stream.
 */
let client: DynamoDBClient;
let tableName: string;
let endpoint: string;
let svc: GameService;
let streams: DynamoDBStreamsClient;
let faulty: ReturnType<typeof faultyReadModels>;
const jobs: NotifyJob[] = [];
let gameId: string;
let failures: StreamFailure[];

/** One on-failure record per shard, covering the shard from its first record to its last (what Lambda sends: place, not records). */
async function failuresOfWholeStream(): Promise<StreamFailure[]> {
  const streamArn = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table!.LatestStreamArn!;
  const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription!.Shards!;
  const out: StreamFailure[] = [];
  for (const shard of shards) {
    let iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' })))
      .ShardIterator;
    const sequences: string[] = [];
    while (iterator) {
      const r = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
      if (!r.Records?.length) break;
      sequences.push(...r.Records.map((x) => x.dynamodb!.SequenceNumber!));
      iterator = r.NextShardIterator;
    }
    if (sequences.length)
      out.push({ DDBStreamBatchInfo: { shardId: shard.ShardId!, startSequenceNumber: sequences[0]!, endSequenceNumber: sequences.at(-1)!, streamArn } });
  }
  return out;
}

/** The SQS event the projector receives from its on-failure queue (the body as Lambda writes it). */
const sqsEvent = (bodies: unknown[]): SQSEvent =>
  ({
    Records: bodies.map((body, n) => ({
      messageId: `m${n}`,
      eventSource: 'aws:sqs',
      body: JSON.stringify({ requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 6 }, version: '1.0', ...(body as object) }),
    })),
  }) as unknown as SQSEvent;

beforeAll(async () => {
  ({ client, tableName, endpoint } = await freshTable('repair'));
  svc = service(client, tableName);
  streams = streamsClient(endpoint);
  faulty = faultyReadModels(endpoint, tableName);
  gameId = (await svc.create('alice', { engine: 'dice-race', options: { target: 500 }, seat: 'p1', commandId: cid() })).gameId;
  await svc.join('bob', gameId, { commandId: cid() });
  await playTurns(svc, gameId, 3);
  failures = await failuresOfWholeStream();
}, 30_000);

afterAll(() => {
  faulty?.destroy();
  streams?.destroy();
});

describe('the projector repairs the batches its stream mapping gave up on', () => {
  const handler = () => createProjectorHandler({ readModels: faulty.models, queue: { enqueue: async (js) => void jobs.push(...js) }, streams, log: () => {} });

  it('reads a failed batch back from the stream: only game heads (never the dice seed or parts), in stream order', async () => {
    expect(failures.length).toBeGreaterThan(0);
    const records = (await Promise.all(failures.map((f) => readFailedBatch(streams, f)))).flat();
    const version = (await svc.view(null, gameId)).summary.version;
    expect(records.every((r) => (r.dynamodb?.Keys as Record<string, { S: string }>)['sk']!.S.startsWith('HEAD#'))).toBe(true);
    // One new HEAD# item per append (create, join, three turns), in order, the last at the game's version.
    const versions = records.map((r) => headChange(r)!.next.version);
    expect(versions).toHaveLength(5);
    expect([...versions].sort((x, y) => x - y)).toEqual(versions);
    expect(versions.at(-1)).toBe(version);
  });

  it('while the fault lasts the message is reported failed (SQS retries it later); once healed the read models equal a rebuild and the notices go out', async () => {
    faulty.broken.game = gameId;
    const failed = await handler()(sqsEvent(failures));
    expect(failed.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(failures.map((_, n) => `m${n}`).sort());
    expect(await new ReadModelStore(client, tableName).getSummary(gameId)).toBeUndefined();

    faulty.broken.game = undefined;
    const repaired = await handler()(sqsEvent(failures));
    expect(repaired.batchItemFailures).toEqual([]);
    const version = (await svc.view(null, gameId)).summary.version;
    expect((await new ReadModelStore(client, tableName).getSummary(gameId))?.version).toBe(version);
    const { failed: rebuildFailed, live, rebuilt } = await readModelsEqualRebuild(client, tableName);
    expect(rebuildFailed).toEqual([]);
    expect(live).toEqual(rebuilt);
    expect(jobs.some((j) => j.notice.gameId === gameId && j.notice.version === version && j.notice.kind === 'turn')).toBe(true);

    // Running the same message again (SQS delivers at least once) changes nothing.
    expect((await handler()(sqsEvent(failures))).batchItemFailures).toEqual([]);
    expect(await readModelsEqualRebuild(client, tableName).then((r) => r.live)).toEqual(live);
  });

  it('a message that is not an on-failure record, or names no stream, is reported failed and left to the parked queue', async () => {
    expect(
      streamFailureSchema.safeParse({ DDBStreamBatchInfo: { shardId: 's', startSequenceNumber: '1x', endSequenceNumber: '2', streamArn: 'a' } }).success,
    ).toBe(false);
    const info = failures[0]!.DDBStreamBatchInfo;
    const r = await handler()(sqsEvent([{ hello: 'world' }, { DDBStreamBatchInfo: { ...info, streamArn: `${info.streamArn}-gone` } }]));
    expect(r.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }, { itemIdentifier: 'm1' }]);
  });
});
