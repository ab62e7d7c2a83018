import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { engineCatalog } from '../engine-catalog.js';
import { createDynamoGameService, systemClock } from '../app/adapters.js';
import { createTournamentWorld, processTournamentRecords, type ReactorDeps } from '../app/tournament-reactor.js';
import { SqsNotifyQueue } from '../notify/queue.js';
import { tableFromEnv } from '../environment.js';

/**
 * DynamoDB Streams → tournaments (the AWS side of what the local stream poller does beside the
 * projector): a tournament's HEAD change makes the games its new pairings want and tells the
 * players (SQS notification jobs); a tournament game's end records its result or its time-out
 * forfeit (the director is told) and rates a rated game; the next round pairs itself in the
 * same decision. Every step is idempotent, so a retried batch changes nothing twice. Reports
 * partial batch failures like the projector.
 */
export function createTournamentsHandler(deps: ReactorDeps) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => processTournamentRecords(event.Records, deps);
}

let fromEnv: ((event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>) | undefined;

export const handler = (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  if (!fromEnv) {
    const { client, tableName } = tableFromEnv(process.env);
    const games = createDynamoGameService({ client, tableName, engines: engineCatalog }).service;
    fromEnv = createTournamentsHandler({
      world: createTournamentWorld({ client, tableName, engines: engineCatalog, clock: systemClock, games }),
      games,
      engines: engineCatalog,
      clock: systemClock,
      queue: SqsNotifyQueue.fromEnv(process.env),
      log: (msg) => console.log(JSON.stringify({ level: 'error', msg })),
    });
  }
  return fromEnv(event);
};
