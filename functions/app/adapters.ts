import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { useSha256, type EngineCatalog } from '../../domain/kernel/index.js';
import { systemClock } from '../environment.js';
import type { Clock, SeedSource } from '../ports.js';
import { DEFAULT_SNAPSHOT_INTERVAL, DynamoEventStore } from '../store/dynamo-event-store.js';
import { createGameService, type GameService } from './game-service.js';

/**
 * node:crypto's SHA-256 for the kernel's hash chain and dice: about 7x the plain TypeScript one
 * (npm run bench). The one-shot `hash` makes no Hash object: a command hashes a dozen times or more.
 */
export const nodeSha256 = (data: Uint8Array): Uint8Array => new Uint8Array(hash('sha256', data, 'buffer'));
useSha256(nodeSha256);

/** The wall clock, as ISO-8601 UTC (functions/environment.ts). */
export { systemClock };

/** Secret game seeds (32 bytes from the OS CSPRNG) and random ids. */
export const cryptoSeeds: SeedSource = {
  newSeed: () => randomBytes(32).toString('hex'),
  newId: () => randomUUID(),
};

/** The service wired to the DynamoDB store, with one snapshot interval shared by both. */
export function createDynamoGameService(opts: {
  client: DynamoDBClient;
  tableName: string;
  engines: EngineCatalog;
  clock?: Clock;
  seeds?: SeedSource;
  snapshotEvery?: number;
  /** The append layout's snapshot cadence in commands (DynamoEventStoreOptions.snapshotItems). */
  snapshotItems?: number;
  /** The layout new games get (default the append layout; tests of older games pass 'tip' or 'item-per-event'). */
  newGames?: DynamoEventStore['newGames'];
}): { service: GameService; store: DynamoEventStore } {
  const snapshotEvery = opts.snapshotEvery ?? DEFAULT_SNAPSHOT_INTERVAL;
  const store = new DynamoEventStore({
    client: opts.client,
    tableName: opts.tableName,
    snapshotInterval: snapshotEvery,
    ...(opts.snapshotItems !== undefined ? { snapshotItems: opts.snapshotItems } : {}),
    ...(opts.newGames ? { newGames: opts.newGames } : {}),
  });
  const service = createGameService({ store, engines: opts.engines, clock: opts.clock ?? systemClock, seeds: opts.seeds ?? cryptoSeeds, snapshotEvery });
  return { service, store };
}
