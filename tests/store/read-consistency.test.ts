import { beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createRegistry } from '../../domain/kernel/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import type { GameService } from '../../functions/app/game-service.js';
import { diceRace } from '../fixtures/dice-race.js';
import { freshTable } from '../support/dynamo.js';

/**
 * Which reads may be eventually consistent (issue 16): a view, a preview and an event feed
 * load the game with ConsistentRead off (half the read units); a command, a deadline step and
 * an export read it strongly consistent, so a command is always decided on the newest version.
 */
let service: GameService;
/** ConsistentRead of every Query the store sent, in order. */
const queries: (boolean | undefined)[] = [];

function recordQueries(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') queries.push((args.input as { ConsistentRead?: boolean }).ConsistentRead);
      return next(args);
    },
    { step: 'initialize', name: 'fieldpostConsistencyProbe', override: true },
  );
}

beforeAll(async () => {
  const t = await freshTable('consistency');
  recordQueries(t.client);
  ({ service } = createDynamoGameService({ client: t.client, tableName: t.tableName, engines: createRegistry([diceRace]) }));
});

describe('read consistency', () => {
  it('views, previews and event feeds read eventually consistent; commands and exports strongly', async () => {
    const { gameId } = await service.create('alice', { engine: 'dice-race', options: {}, seat: 'p1', commandId: 'rc-create' });
    await service.join('bob', gameId, { commandId: 'rc-join' });
    queries.length = 0;
    await service.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'rc-roll' });
    expect(queries).toEqual([true]);

    queries.length = 0;
    const view = await service.view('alice', gameId);
    expect(view.summary.version).toBeGreaterThan(2);
    await service.events('bob', gameId);
    expect(queries).toEqual([false, false]);

    queries.length = 0;
    await service.resign('bob', gameId, { commandId: 'rc-resign' });
    await service.exportLog(null, gameId);
    expect(queries).toEqual([true, true]);
  });

  it('an eventually consistent read that finds no game asks again strongly before answering 404', async () => {
    queries.length = 0;
    await expect(service.view('alice', 'g-nothing-here')).rejects.toMatchObject({ status: 404 });
    expect(queries).toEqual([false, true]);
  });
});
