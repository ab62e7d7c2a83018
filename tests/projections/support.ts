import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createRegistry } from '../../domain/kernel/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import type { GameService } from '../../functions/app/game-service.js';
import type { CheckpointStore, ShardCheckpoint, StreamPollerOptions } from '../../functions/local/stream-poller.js';
import { ReadModelStore } from '../../functions/projections/read-model-store.js';
import { documentClient } from '../../functions/store/document-client.js';
import { rebuildReadModels } from '../../functions/projections/rebuild.js';
import { ensureTable } from '../../functions/store/table.js';
import { diceRace } from '../fixtures/dice-race.js';

export const engines = createRegistry([diceRace]);

let counter = 0;
export const cid = (label = 'c') => `${label}-${Date.now().toString(36)}-${++counter}`;

export function service(client: DynamoDBClient, tableName: string): GameService {
  return createDynamoGameService({ client, tableName, engines }).service;
}

/** Plays `moves` turns of a two-player dice race; whoever is pending rolls. */
export async function playTurns(svc: GameService, gameId: string, moves: number): Promise<void> {
  for (let i = 0; i < moves; i++) {
    const v = await svc.view(null, gameId);
    const next = v.summary.pending[0];
    if (!next?.player) return;
    await svc.submit(next.player, gameId, { command: { type: 'Roll' }, commandId: cid('roll') });
  }
}

/** Every read-model item (inbox, lobby, summaries), sorted: for equality between two paths. */
export async function readModelItems(client: DynamoDBClient, tableName: string): Promise<Record<string, unknown>[]> {
  const doc = documentClient(client);
  const out: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const r = await doc.send(new ScanCommand({ TableName: tableName, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }));
    for (const i of r.Items ?? []) {
      const pk = String(i['pk']);
      if (pk === 'LOBBY' || pk.startsWith('INBOX#') || pk.startsWith('SUMMARY#')) out.push(i);
    }
    start = r.LastEvaluatedKey;
  } while (start);
  return out.sort((a, b) => (`${a['pk']}|${a['sk']}` < `${b['pk']}|${b['sk']}` ? -1 : 1));
}

/**
 * Read models on a client of their own whose every call that names `broken.game` fails with an
 * InternalServerError (a persistent fault on one game), with no SDK retries so each try meets it at once.
 */
export function faultyReadModels(
  endpoint: string,
  tableName: string,
): { models: ReadModelStore; broken: { game?: string | undefined }; faults(): number; destroy(): void } {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  const broken: { game?: string | undefined } = {};
  let faults = 0;
  client.middlewareStack.add(
    (next) => async (args) => {
      if (broken.game && JSON.stringify(args.input).includes(broken.game)) {
        faults++;
        throw Object.assign(new Error('Internal server error'), { name: 'InternalServerError', $fault: 'server', $metadata: { httpStatusCode: 500 } });
      }
      return next(args);
    },
    { step: 'initialize', name: 'persistentFault' },
  );
  return { models: new ReadModelStore(client, tableName), broken, faults: () => faults, destroy: () => client.destroy() };
}

/** The read models of the whole table equal a rebuild of every game from its events into a fresh table. */
export async function readModelsEqualRebuild(client: DynamoDBClient, tableName: string): Promise<{ failed: unknown[]; live: unknown[]; rebuilt: unknown[] }> {
  const target = `${tableName}-r${++counter}`;
  await ensureTable(client, target);
  const report = await rebuildReadModels({ client, sourceTable: tableName, targetTable: target, engines });
  return { failed: [...report.failed], live: await readModelItems(client, tableName), rebuilt: await readModelItems(client, target) };
}

/** A DynamoDB Streams client on the run's DynamoDB Local. */
export const streamsClient = (endpoint: string): DynamoDBStreamsClient =>
  new DynamoDBStreamsClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

/** Stream checkpoints kept in memory, as a consumer started again in the same process finds them; `first()`: the first shard's. */
export function memoryCheckpoints(): { readonly store: CheckpointStore; first(): ShardCheckpoint | undefined } {
  const saved = new Map<string, Map<string, ShardCheckpoint>>();
  return {
    store: {
      load: async (arn) => new Map(saved.get(arn) ?? []),
      save: async (arn, shards) => void saved.set(arn, new Map(shards)),
    },
    first: () => [...(saved.values().next().value?.values() ?? [])][0],
  };
}

/** A consumer's barrier whose hand-over n (numbered from 1; `handedOver()` says how many so far) set going work that is unfinished while `held` has n. */
export function heldBarrier(held: ReadonlySet<number>, handedOver: () => number): NonNullable<StreamPollerOptions['barrier']> {
  const unfinished = (after: number, through: number) => [...held].some((n) => n > after && n <= through);
  return { mark: handedOver, finished: (after, through) => !unfinished(after, through), settled: (after, through) => !unfinished(after, through) };
}
