import { beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, type GameEngine } from '../../domain/kernel/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import { diceRace } from '../fixtures/dice-race.js';
import { freshTable } from '../support/dynamo.js';

/**
 * A server folds each game's events once (issue 16): it keeps the newest state it folded of a
 * game, and a later load folds only the events after it, whether this server or another one
 * appended them. What it answers is the same as a server that folds the whole tail.
 */
let folds = 0;
const counted: GameEngine = {
  ...(diceRace as unknown as GameEngine),
  evolve(s, e) {
    folds++;
    return (diceRace as unknown as GameEngine).evolve(s, e);
  },
};
const engines = createRegistry([counted]);
let table: Awaited<ReturnType<typeof freshTable>>;

beforeAll(async () => {
  table = await freshTable('folded');
});

const server = () => createDynamoGameService({ client: table.client, tableName: table.tableName, engines, snapshotEvery: 50, snapshotItems: 50 }).service;

describe('folding each event once per server', () => {
  it('a view after a command folds nothing; a command by another server is folded alone; answers match a fresh server', async () => {
    const a = server();
    const b = server();
    const { gameId } = await a.create('alice', { engine: 'dice-race', options: { target: 10_000 }, seat: 'p1', commandId: 'fs-create' });
    await a.join('bob', gameId, { commandId: 'fs-join' });
    for (let i = 0; i < 6; i++) await a.submit(i % 2 ? 'bob' : 'alice', gameId, { command: { type: 'Roll' }, commandId: `fs-${i}` });
    folds = 0;
    const mine = await a.view('alice', gameId);
    expect(folds).toBe(0);

    // Another server moves: this one folds that command's events only.
    const moved = await b.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'fs-b' });
    folds = 0;
    const after = await a.view('alice', gameId);
    expect(after.summary.version).toBe(moved.version);
    // Its two events: the kernel's CommandAccepted and the engine's Rolled (the one evolve).
    expect(moved.version - mine.summary.version).toBe(2);
    expect(folds).toBe(1);

    // A server that never saw the game folds its whole tail, to the same answer.
    folds = 0;
    const fresh = await server().view('alice', gameId);
    expect(folds).toBeGreaterThan(7);
    expect(after).toEqual(fresh);
  });
});
