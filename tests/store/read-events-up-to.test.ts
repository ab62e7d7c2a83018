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
/**
 * A Dice Race of `rolls` commands (one item each) on a fresh table whose every Query passes
 * through `onQuery` (its input, and its output, which the probe may change).
 */
async function rolledGame(name: string, rolls: number, onQuery: (input: { ConsistentRead?: boolean }, output: { Count?: number; Items?: unknown[] }) => void) {
  const t = await freshTable(name);
  t.client.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (context.commandName === 'QueryCommand') onQuery(args.input as { ConsistentRead?: boolean }, out.output as { Count?: number; Items?: unknown[] });
      return out;
    },
    { step: 'initialize', name: 'queryProbe' },
  );
  const { service, store } = createDynamoGameService({ client: t.client, tableName: t.tableName, engines: createRegistry([diceRace]) });
  const { gameId } = await service.create('alice', { engine: 'dice-race', options: { target: 10_000 }, seat: 'p1', commandId: `${name}-create` });
  await service.join('bob', gameId, { commandId: `${name}-join` });
  for (let i = 0; i < rolls; i++) await service.submit(i % 2 ? 'bob' : 'alice', gameId, { command: { type: 'Roll' }, commandId: `${name}-${i}` });
  return { gameId, store };
}

describe('readEvents up to a version', () => {
  it('reads only the items holding events up to it, and gives the same events', async () => {
    const itemsRead: number[] = [];
    const { gameId, store } = await rolledGame('read-up-to', 20, (_input, output) => itemsRead.push(output.Count ?? 0));

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
    const consistent: (boolean | undefined)[] = [];
    let dropOne = false;
    const { gameId, store } = await rolledGame('read-up-to-eventual', 12, (input, output) => {
      consistent.push(input.ConsistentRead);
      // A replica a moment behind that misses one older item (as an eventually consistent read might).
      if (dropOne && input.ConsistentRead === false && output.Items && output.Items.length > 2) output.Items.splice(1, 1);
    });
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
