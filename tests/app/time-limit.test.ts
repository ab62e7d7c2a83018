import { beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, verifyLog } from '../../domain/kernel/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import type { GameService } from '../../functions/app/game-service.js';
import { AppError } from '../../functions/ports.js';
import { diceRace } from '../fixtures/dice-race.js';
import { freshTable } from '../support/dynamo.js';

/** Claiming a game on time through the service, on DynamoDB Local, with a clock the test moves. */
const engines = createRegistry([diceRace]);
let now = Date.parse('2026-05-01T08:00:00.000Z');
let svc: GameService;

beforeAll(async () => {
  const t = await freshTable('time');
  ({ service: svc } = createDynamoGameService({ client: t.client, tableName: t.tableName, engines, clock: { now: () => new Date(now).toISOString() } }));
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => (e instanceof AppError ? [e.status, e.code] : e),
  );

describe('time limits through the service', () => {
  it('a waiting seat that lets the limit pass loses the game to a claim; earlier claims are refused', async () => {
    const { gameId } = await svc.create('alice', { engine: 'dice-race', options: { target: 50 }, seat: 'p1', timeLimitHours: 48, commandId: 'tl-create' });
    await svc.join('bob', gameId, { commandId: 'tl-join' });
    const view = await svc.view('bob', gameId);
    expect(view.summary.timeLimitHours).toBe(48);
    expect(view.pending[0]).toMatchObject({ seat: 'p1', deadline: '2026-05-03T08:00:00.000Z' });
    now += 47 * 3_600_000;
    expect(await refusal(svc.claimTimeout('bob', gameId, { commandId: 'tl-early' }))).toEqual([422, 'time/not-yet']);
    // The refusal names the side and player it waits for, not the seat id.
    await expect(svc.claimTimeout('bob', gameId, { commandId: 'tl-early-2' })).rejects.toThrow('Player 1 (alice) has until 2026-05-03T08:00:00.000Z to move');
    expect(await refusal(svc.claimTimeout('alice', gameId, { commandId: 'tl-self' }))).toEqual([422, 'time/your-move']);
    now += 2 * 3_600_000;
    const r = await svc.claimTimeout('bob', gameId, { commandId: 'tl-claim' });
    expect(r.events.map((e) => e.type)).toEqual(['Game.TimedOut', 'Game.Ended']);
    const end = await svc.view('alice', gameId);
    expect(end.summary).toMatchObject({ status: 'ended', outcome: { winners: ['p2'] } });
    expect(verifyLog(await svc.exportLog('alice', gameId), engines.get).ok).toBe(true);
  });

  it('a time limit outside 1 to 1440 hours is refused at creation', async () => {
    expect(await refusal(svc.create('alice', { engine: 'dice-race', timeLimitHours: 0, commandId: 'tl-bad' }))).toEqual([400, 'game/bad-time-limit']);
  });
});
