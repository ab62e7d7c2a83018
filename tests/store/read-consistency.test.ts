import { beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createRegistry } from '../../domain/kernel/index.js';
import { createDynamoGameService, cryptoSeeds, systemClock } from '../../functions/app/adapters.js';
import { createGameService, type GameService } from '../../functions/app/game-service.js';
import type { EventStore } from '../../functions/ports.js';
import { diceRace } from '../fixtures/dice-race.js';
import { freshTable } from '../support/dynamo.js';

/**
 * Which reads may be eventually consistent (issue 16): a view, a preview and an event feed
 * load the game with ConsistentRead off (half the read units); so does a command's first load,
 * whose append is conditional on the version it read, and which loads strongly consistent
 * before any answer but a new append; a deadline step and an export read strongly consistent.
 */
let service: GameService;
/** ConsistentRead of every Query the store sent, in order, and what each asked for (its ProjectionExpression: none for a load). */
const queries: (boolean | undefined)[] = [];
const projections: (string | undefined)[] = [];

function recordQueries(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') {
        const input = args.input as { ConsistentRead?: boolean; ProjectionExpression?: string };
        queries.push(input.ConsistentRead);
        projections.push(input.ProjectionExpression);
      }
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
  it("views, previews, event feeds and a command's first load read eventually consistent; exports strongly", async () => {
    const { gameId } = await service.create('alice', { engine: 'dice-race', options: {}, seat: 'p1', commandId: 'rc-create' });
    await service.join('bob', gameId, { commandId: 'rc-join' });
    queries.length = 0;
    await service.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'rc-roll' });
    expect(queries).toEqual([false]);
    // A refusal (it is bob's turn) is answered only once a consistent read says the first load was the
    // newest: one small probe of the keys past its version (sk only), not a second load; then the
    // look-up of an older command by that id (ev).
    queries.length = 0;
    projections.length = 0;
    await expect(service.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'rc-roll-again' })).rejects.toMatchObject({ status: 422 });
    expect(queries).toEqual([false, true, true]);
    expect(projections).toEqual([undefined, 'sk', 'ev']);

    queries.length = 0;
    const view = await service.view('alice', gameId);
    expect(view.summary.version).toBeGreaterThan(2);
    await service.events('bob', gameId);
    expect(queries).toEqual([false, false]);

    // A page opening the game reads the view and its log's new part in one request and one read.
    queries.length = 0;
    const opened = await service.view('bob', gameId, { eventsAfter: 1 });
    expect(queries).toEqual([false]);
    const { seats: _seats, ...feed } = await service.events('bob', gameId, { after: 1, limit: 1000 });
    expect(opened.log).toEqual(feed);
    expect(opened.log!.events[0]!.seq).toBe(2);

    queries.length = 0;
    await service.resign('bob', gameId, { commandId: 'rc-resign' });
    await service.exportLog(null, gameId);
    expect(queries).toEqual([false, true]);
  });

  it('a command whose first read was a moment old is decided again on a consistent read, not refused', async () => {
    const t = await freshTable('consistency-stale');
    const { service: live, store } = createDynamoGameService({ client: t.client, tableName: t.tableName, engines: createRegistry([diceRace]) });
    const { gameId } = await live.create('alice', { engine: 'dice-race', options: {}, seat: 'p1', commandId: 'st-create' });
    await live.join('bob', gameId, { commandId: 'st-join' });
    // An eventually consistent read that has not seen alice's roll yet: it is still her turn there.
    const old = await store.load(gameId, { consistent: true });
    await live.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'st-roll' });
    const loads: boolean[] = [];
    const lagging: EventStore = Object.create(store, {
      load: {
        value: async (id: string, opts: { consistent?: boolean } = {}) => {
          loads.push(opts.consistent ?? true);
          return opts.consistent === false ? old : store.load(id, opts);
        },
      },
    });
    const service2 = createGameService({ store: lagging, engines: createRegistry([diceRace]), clock: systemClock, seeds: cryptoSeeds });
    // Bob's roll: on the old read it is not his turn; with expectedVersion, the old read's version is not his.
    const expectedVersion = (await live.view('bob', gameId)).summary.version;
    const r = await service2.submit('bob', gameId, { command: { type: 'Roll' }, commandId: 'st-bob', expectedVersion });
    expect(r.duplicate).toBe(false);
    expect(loads).toEqual([false, true]);
    // Alice's next roll, decided on the old read (her turn there too): its append finds the game moved on, and it goes in from a consistent read.
    loads.length = 0;
    const again = await service2.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'st-alice-2' });
    expect(again.version).toBeGreaterThan(expectedVersion);
    expect(loads).toEqual([false, true]);
  });

  it('an eventually consistent read that finds no game asks again strongly before answering 404', async () => {
    queries.length = 0;
    await expect(service.view('alice', 'g-nothing-here')).rejects.toMatchObject({ status: 404 });
    expect(queries).toEqual([false, true]);
  });
});
