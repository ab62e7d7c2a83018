import { beforeAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import type { GameService } from '../../functions/app/game-service.js';
import { AppError } from '../../functions/ports.js';
import type { DynamoEventStore } from '../../functions/store/dynamo-event-store.js';
import { diceRace } from '../fixtures/dice-race.js';
import { freshTable } from '../support/dynamo.js';

/**
 * A commandId names one player's command. Another player sending the same id (by accident,
 * or by guessing a client's next id) must not be told their command was applied, and must
 * not turn the first player's command into a silent no-op.
 */
const engines = createRegistry([diceRace]);
let svc: GameService;
let store: DynamoEventStore;
let n = 0;
const cid = () => `ci-${++n}`;

beforeAll(async () => {
  const t = await freshTable('command-id');
  ({ service: svc, store } = createDynamoGameService({ client: t.client, tableName: t.tableName, engines }));
});

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe('commandIds belong to the player who sent them', () => {
  it('a commandId already used by the other player is 409 command/id-in-use, not a duplicate of their command', async () => {
    const { gameId } = await svc.create('alice', { engine: 'dice-race', options: { target: 10_000 }, seat: 'p1', commandId: cid() });
    await svc.join('bob', gameId, { commandId: cid() });
    const aliceRoll = await svc.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'shared-id' });
    expect(aliceRoll.duplicate).toBe(false);
    const version = (await store.load(gameId))!.version;

    // Bob, whose turn it now is, sends his roll under alice's id: it was not applied, so he must not hear "duplicate".
    const e = await rejection(svc.submit('bob', gameId, { command: { type: 'Roll' }, commandId: 'shared-id' }));
    expect(e).toMatchObject({ status: 409, code: 'command/id-in-use' });
    expect((await store.load(gameId))!.version).toBe(version);
    // Alice's own retry is still her duplicate.
    expect(await svc.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'shared-id' })).toMatchObject({
      duplicate: true,
      version: aliceRoll.version,
    });
    // And bob's roll under a fresh id lands.
    expect((await svc.submit('bob', gameId, { command: { type: 'Roll' }, commandId: cid() })).duplicate).toBe(false);
  });

  it('a join under an id the creator used is refused with 409, not answered with the creator events', async () => {
    const createId = cid();
    const { gameId } = await svc.create('alice', { engine: 'dice-race', options: { target: 10_000 }, seat: 'p1', commandId: createId });
    const e = await rejection(svc.join('bob', gameId, { commandId: createId }));
    expect(e).toMatchObject({ status: 409, code: 'command/id-in-use' });
    const joined = await svc.join('bob', gameId, { commandId: cid() });
    expect(joined.duplicate).toBe(false);
  });
});
