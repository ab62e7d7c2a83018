import { beforeAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import type { GameService } from '../../functions/app/game-service.js';
import { AppError } from '../../functions/ports.js';
import type { DynamoEventStore } from '../../functions/store/dynamo-event-store.js';
import { diceRace } from '../fixtures/dice-race.js';
import { sealedBid } from '../fixtures/sealed-bid.js';
import { freshTable } from '../support/dynamo.js';
import { tally } from './tally.js';

/**
 * A commandId is an idempotency key: the same request sent again is answered as the first
 * (duplicate), but the same id with a different request is refused with 409
 * command/id-reused, so a client that reuses ids by mistake learns its command was not
 * applied instead of hearing "done". Judged from the events the first command recorded.
 */
const engines = createRegistry([diceRace, tally, sealedBid]);
let svc: GameService;
let store: DynamoEventStore;
let now = Date.parse('2026-03-01T12:00:00Z');
let n = 0;
const cid = () => `reuse-${++n}`;

beforeAll(async () => {
  const t = await freshTable('command-reuse');
  ({ service: svc, store } = createDynamoGameService({
    client: t.client,
    tableName: t.tableName,
    engines,
    clock: { now: () => new Date(now).toISOString() },
  }));
});

async function refusal(p: Promise<unknown>): Promise<[number, string]> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return [(e as AppError).status, (e as AppError).code];
}
const REUSED: [number, string] = [409, 'command/id-reused'];
const version = async (gameId: string) => (await store.load(gameId))!.version;

async function tallyGame(): Promise<string> {
  const { gameId } = await svc.create('alice', { engine: 'tally', seat: 'a', commandId: cid() });
  await svc.join('bob', gameId, { seat: 'b', commandId: cid() });
  return gameId;
}

describe('a commandId sent again', () => {
  it('with the same command is a duplicate; with a different command it is refused and nothing is applied', async () => {
    const gameId = await tallyGame();
    const first = await svc.submit('alice', gameId, { commandId: 'add-1', command: { type: 'Add', n: 2 } });
    expect(first.duplicate).toBe(false);
    // Key order and absent optional fields do not make a request different.
    expect(await svc.submit('alice', gameId, { commandId: 'add-1', command: { n: 2, type: 'Add' } })).toMatchObject({
      duplicate: true,
      version: first.version,
    });
    expect(await svc.submit('alice', gameId, { commandId: 'add-1', command: { type: 'Add', n: 2 }, seat: 'a' })).toMatchObject({ duplicate: true });
    expect(await refusal(svc.submit('alice', gameId, { commandId: 'add-1', command: { type: 'Add', n: 3 } }))).toEqual(REUSED);
    expect(await refusal(svc.submit('alice', gameId, { commandId: 'add-1', command: { type: 'Add', n: 2, extra: true } }))).toEqual(REUSED);
    expect(await version(gameId)).toBe(first.version);
    // Also when the retry carries an expectedVersion that has gone stale.
    await svc.submit('bob', gameId, { commandId: cid(), command: { type: 'Add', n: 1 } });
    expect(await svc.submit('alice', gameId, { commandId: 'add-1', command: { type: 'Add', n: 2 }, expectedVersion: first.version - 1 })).toMatchObject({
      duplicate: true,
    });
    expect(await refusal(svc.submit('alice', gameId, { commandId: 'add-1', command: { type: 'Add', n: 5 }, expectedVersion: first.version - 1 }))).toEqual(
      REUSED,
    );
  });

  it('for a resign, a claim, a cancel or a join after a different command is refused, never a silent no-op', async () => {
    const gameId = await tallyGame();
    await svc.submit('alice', gameId, { commandId: 'alice-move', command: { type: 'Add', n: 1 } });
    const v = await version(gameId);
    expect(await refusal(svc.resign('alice', gameId, { commandId: 'alice-move' }))).toEqual(REUSED);
    expect(await refusal(svc.claimTimeout('alice', gameId, { commandId: 'alice-move' }))).toEqual(REUSED);
    expect(await version(gameId)).toBe(v);
    expect((await svc.view('alice', gameId)).summary.status).toBe('active');

    const open = await svc.create('alice', { engine: 'tally', seat: 'a', commandId: 'make-open' });
    expect(await refusal(svc.cancel('alice', open.gameId, { commandId: 'make-open' }))).toEqual(REUSED);
    expect((await svc.view('alice', open.gameId)).summary.status).toBe('open');
    await svc.join('bob', open.gameId, { seat: 'b', entropy: 'bob-noise', commandId: 'bob-join' });
    expect(await svc.join('bob', open.gameId, { seat: 'b', entropy: 'bob-noise', commandId: 'bob-join' })).toMatchObject({ duplicate: true });
    expect(await svc.join('bob', open.gameId, { entropy: 'bob-noise', commandId: 'bob-join' })).toMatchObject({ duplicate: true });
    expect(await refusal(svc.join('bob', open.gameId, { seat: 'b', entropy: 'other-noise', commandId: 'bob-join' }))).toEqual(REUSED);
    expect(await refusal(svc.submit('bob', open.gameId, { commandId: 'bob-join', command: { type: 'Add', n: 1 } }))).toEqual(REUSED);
    expect(await refusal(svc.resign('bob', open.gameId, { commandId: 'bob-join' }))).toEqual(REUSED);
    expect((await svc.view('bob', open.gameId)).summary.status).toBe('active');

    // And the real commands, each retried as itself, are duplicates.
    const resigned = await svc.resign('bob', open.gameId, { commandId: 'bob-resign' });
    expect(await svc.resign('bob', open.gameId, { commandId: 'bob-resign' })).toMatchObject({ duplicate: true, version: resigned.version });
    expect(await svc.resign('bob', open.gameId, { commandId: 'bob-resign', seat: 'b' })).toMatchObject({ duplicate: true });
    expect(await refusal(svc.resign('bob', open.gameId, { commandId: 'bob-resign', seat: 'a' }))).toEqual(REUSED);
    const cancelled = await svc.create('alice', { engine: 'tally', commandId: cid() });
    await svc.cancel('alice', cancelled.gameId, { commandId: 'alice-cancel' });
    expect(await svc.cancel('alice', cancelled.gameId, { commandId: 'alice-cancel' })).toMatchObject({ duplicate: true });
  });

  it('for a claim on time: the same claim is a duplicate, a different command under its id is refused', async () => {
    const { gameId } = await svc.create('alice', { engine: 'dice-race', options: { target: 50 }, seat: 'p1', timeLimitHours: 1, commandId: cid() });
    await svc.join('bob', gameId, { commandId: cid() });
    await svc.submit('alice', gameId, { commandId: cid(), command: { type: 'Roll' } });
    now += 2 * 3_600_000;
    const claim = await svc.claimTimeout('alice', gameId, { commandId: 'claim' });
    expect(await svc.claimTimeout('alice', gameId, { commandId: 'claim' })).toMatchObject({ duplicate: true, version: claim.version });
    expect(await refusal(svc.resign('alice', gameId, { commandId: 'claim' }))).toEqual(REUSED);
  });

  it('for a create: the same create is the same game; different options, seat, reservation or engine are refused', async () => {
    const input: Parameters<GameService['create']>[1] = {
      engine: 'dice-race',
      options: { target: 30 },
      seat: 'p1',
      entropy: 'noise',
      timeLimitHours: 24,
      commandId: 'create-1',
    };
    const first = await svc.create('alice', input);
    expect(await svc.create('alice', { ...input })).toMatchObject({ duplicate: true, gameId: first.gameId, version: first.version });
    for (const different of [
      { options: { target: 31 } },
      { seat: 'p2' },
      { entropy: 'other' },
      { reserve: { p2: 'carol' } },
      { options: {} },
      { timeLimitHours: 48 },
      { engine: 'tally', options: undefined, seat: 'a' },
    ]) {
      const request = Object.fromEntries(Object.entries({ ...input, ...different }).filter(([, v]) => v !== undefined)) as typeof input;
      expect([different, await refusal(svc.create('alice', request))]).toEqual([different, REUSED]);
    }
    const { seat: _seat, entropy: _entropy, ...unseated } = input;
    expect(await refusal(svc.create('alice', unseated))).toEqual(REUSED);
  });

  it('with a draft: the same sealed order is a duplicate, another order is refused', async () => {
    const { gameId } = await svc.create('alice', { engine: 'sealed-bid', seat: 'a', commandId: cid() });
    await svc.join('bob', gameId, { commandId: cid() });
    const draft = [
      { type: 'Bid', amount: 3 },
      { type: 'Bid', amount: 4 },
    ];
    const sealed = await svc.submit('alice', gameId, { commandId: 'seal-1', command: { type: 'Seal' }, draft });
    expect(sealed.duplicate).toBe(false);
    expect(await svc.submit('alice', gameId, { commandId: 'seal-1', command: { type: 'Seal' }, draft })).toMatchObject({ duplicate: true });
    expect(await refusal(svc.submit('alice', gameId, { commandId: 'seal-1', command: { type: 'Seal' }, draft: [{ type: 'Bid', amount: 9 }] }))).toEqual(REUSED);
    expect(await refusal(svc.submit('alice', gameId, { commandId: 'seal-1', command: { type: 'Seal' } }))).toEqual(REUSED);
  });
});
