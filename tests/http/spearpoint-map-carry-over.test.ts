import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { registry } from '../../domain/registry.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { cid, http } from './support.js';

/**
 * 003 §IV carry-over over HTTP on DynamoDB Local: `carryOverFrom` names a finished game of the same
 * engine the creator played in; the server adds its final tiles to the new game's options at create,
 * so the new Game.Created holds them explicitly and the export verifies alone.
 */
let rt: LocalRuntime;
let api: ReturnType<typeof http>;
const token = {} as Record<'alice' | 'bob' | 'carol', string>;
const ENGINE = 'spearpoint-1943-map';
const FINAL_TILES = [
  { space: 'A6', kind: 'crops', intact: true },
  { space: 'B4', kind: 'building', intact: false },
];

beforeAll(async () => {
  rt = await startLocalRuntime({
    memory: true,
    engines: registry,
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `spm-carry-${Date.now().toString(36)}`,
  });
  api = http(rt.url);
  for (const player of ['alice', 'bob', 'carol'] as const) token[player] = (await api.post('/local/token', undefined, { player })).body.token as string;
});
afterAll(async () => {
  await rt?.stop();
});

async function game(engine: string, options: unknown, end: boolean): Promise<string> {
  const created = await api.post('/v1/games', token.alice, { engine, options, seat: 'us', commandId: cid('create') });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.gameId as string;
  expect((await api.post(`/v1/games/${id}/join`, token.bob, { commandId: cid('join') })).status).toBe(200);
  if (end) expect((await api.post(`/v1/games/${id}/resign`, token.bob, { commandId: cid('resign') })).status).toBe(200);
  return id;
}
const create = (player: 'alice' | 'bob' | 'carol', carryOverFrom: string, options: unknown = { scenario: 'gunters-return' }) =>
  api.post('/v1/games', token[player], { engine: ENGINE, options, carryOverFrom, seat: 'us', commandId: cid('next') });

describe('spearpoint-1943-map carry-over between games (003 §IV)', () => {
  let finished: string;
  beforeAll(async () => {
    finished = await game(ENGINE, { scenario: 'what-now-sarge', tiles: FINAL_TILES }, true);
  });

  it("the next scenario starts on the finished game's final tiles, written into its Game.Created; its export verifies alone", async () => {
    const before = await api.get(`/v1/games/${finished}`, token.alice);
    expect(before.body.summary.status).toBe('ended');
    const r = await create('bob', finished);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const next = r.body.gameId as string;
    expect((await api.post(`/v1/games/${next}/join`, token.alice, { commandId: cid('join') })).status).toBe(200);
    const view = await api.get(`/v1/games/${next}`, token.bob);
    expect(view.body.view.tiles).toEqual({ A6: { kind: 'crops', intact: true }, B4: { kind: 'building', intact: false } });
    // The export is of a finished game: the new one is resigned, then exported.
    expect((await api.post(`/v1/games/${next}/resign`, token.alice, { commandId: cid('resign') })).status).toBe(200);
    const ex = await api.get(`/v1/games/${next}/export`, token.bob);
    expect(ex.status).toBe(200);
    const events = ex.body.events as EventEnvelope[];
    expect(events[0]!.type).toBe('Game.Created');
    expect((events[0]!.data as { options: unknown }).options).toMatchObject({ scenario: 'gunters-return', tiles: FINAL_TILES });
    expect(JSON.stringify(events[0]!.data)).not.toContain(finished);
    const report = verifyLog(events, registry.get);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('refuses an unknown, unfinished, foreign or wrong-engine game, and explicit tiles, with a clear 4xx', async () => {
    const expectError = async (r: { status: number; body: { code?: string; error?: { code?: string } } }, status: number, code: string) => {
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.error?.code ?? r.body.code).toBe(code);
    };
    await expectError(await create('alice', 'no-such-game'), 404, 'game/not-found');
    await expectError(await create('alice', '__proto__'), 404, 'game/not-found');
    await expectError(await create('alice', await game(ENGINE, { scenario: 'what-now-sarge' }, false)), 409, 'carry-over/not-finished');
    await expectError(await create('carol', finished), 403, 'carry-over/not-a-player');
    await expectError(await create('alice', await game('spearpoint-1943', {}, true)), 400, 'carry-over/wrong-engine');
    await expectError(await create('alice', finished, { scenario: 'gunters-return', tiles: [] }), 400, 'carry-over/tiles-given');
    await expectError(await create('alice', finished, 'x'), 400, 'carry-over/bad-options');
    const bad = await api.post('/v1/games', token.alice, { engine: ENGINE, carryOverFrom: 'a/b', commandId: cid('bad') });
    expect(bad.status).toBe(400);
  });
});
