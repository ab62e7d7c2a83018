import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import { diceRace } from '../fixtures/dice-race.js';
import { freshTable } from '../support/dynamo.js';

/**
 * A read of older events (a feed or a view's log behind the snapshot) needs none of the items
 * the load already brought (issue 16): with `upTo`, the append layout's Query starts at the item
 * holding that event, not at the newest.
 */
describe('readEvents up to a version', () => {
  it('reads only the items holding events up to it, and gives the same events', async () => {
    const t = await freshTable('read-up-to');
    const itemsRead: number[] = [];
    t.client.middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        if (context.commandName === 'QueryCommand') itemsRead.push((out.output as { Count?: number }).Count ?? 0);
        return out;
      },
      { step: 'initialize', name: 'itemsRead' },
    );
    const { service, store } = createDynamoGameService({ client: t.client, tableName: t.tableName, engines: createRegistry([diceRace]) });
    const { gameId } = await service.create('alice', { engine: 'dice-race', options: { target: 10_000 }, seat: 'p1', commandId: 'up-create' });
    await service.join('bob', gameId, { commandId: 'up-join' });
    for (let i = 0; i < 20; i++) await service.submit(i % 2 ? 'bob' : 'alice', gameId, { command: { type: 'Roll' }, commandId: `up-${i}` });

    const read = async (upTo?: number) => {
      itemsRead.length = 0;
      const events = await store.readEvents(gameId, 0, 1000, upTo === undefined ? {} : { upTo });
      return { events, items: itemsRead.reduce((a, b) => a + b, 0) };
    };
    const all = await read();
    const older = await read(8);
    expect(older.events.filter((e) => e.seq <= 8)).toEqual(all.events.filter((e) => e.seq <= 8));
    expect(older.events.every((e) => e.seq <= 10)).toBe(true);
    // Each roll is one item: the whole log reads every item, the first 8 events only theirs.
    expect(all.items).toBeGreaterThanOrEqual(20);
    expect(older.items).toBeLessThan(all.items / 2);
    expect(older.events.every((e) => e.seq <= 8)).toBe(true);
  });

  it('reads eventually consistent when asked, and consistent again when what it got does not run unbroken', async () => {
    const t = await freshTable('read-up-to-eventual');
    const consistent: (boolean | undefined)[] = [];
    let dropOne = false;
    t.client.middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        if (context.commandName === 'QueryCommand') {
          consistent.push((args.input as { ConsistentRead?: boolean }).ConsistentRead);
          // A replica a moment behind that misses one older item (as an eventually consistent read might).
          const items = (out.output as { Items?: unknown[] }).Items;
          if (dropOne && (args.input as { ConsistentRead?: boolean }).ConsistentRead === false && items && items.length > 2) items.splice(1, 1);
        }
        return out;
      },
      { step: 'initialize', name: 'consistency' },
    );
    const { service, store } = createDynamoGameService({ client: t.client, tableName: t.tableName, engines: createRegistry([diceRace]) });
    const { gameId } = await service.create('alice', { engine: 'dice-race', options: { target: 10_000 }, seat: 'p1', commandId: 'ev-create' });
    await service.join('bob', gameId, { commandId: 'ev-join' });
    for (let i = 0; i < 12; i++) await service.submit(i % 2 ? 'bob' : 'alice', gameId, { command: { type: 'Roll' }, commandId: `ev-${i}` });
    const want = (await store.readEvents(gameId, 2, 1000, { upTo: 10 })).map((e) => e.seq);
    expect(want).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);

    consistent.length = 0;
    expect((await store.readEvents(gameId, 2, 1000, { upTo: 10, consistent: false })).map((e) => e.seq)).toEqual(want);
    expect(consistent).toEqual([false]);

    consistent.length = 0;
    dropOne = true;
    const got = await store.readEvents(gameId, 2, 1000, { upTo: 10, consistent: false });
    dropOne = false;
    expect(consistent[0]).toBe(false);
    expect(consistent.at(-1)).toBe(true);
    expect(got.map((e) => e.seq)).toEqual(want);
  });
});
