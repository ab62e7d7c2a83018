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
  });
});
