import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createRegistry } from '../../domain/kernel/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import type { GameService } from '../../functions/app/game-service.js';
import { documentClient } from '../../functions/projections/read-model-store.js';
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
