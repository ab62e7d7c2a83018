import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { API_TYPES_FILE, apiTypesSource } from '../../functions/http/api-types.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import type { paths } from '../../web/src/api-types.js';
import { diceRace } from '../fixtures/dice-race.js';
import { cid } from './support.js';

/**
 * The README's generated client: types made by openapi-typescript from GET /v1/openapi.json,
 * calls made by openapi-fetch, one move played on the local runtime. The type check (npm test
 * runs tsc) proves the calls below fit the document; the run proves the server agrees.
 */
let rt: LocalRuntime;

beforeAll(async () => {
  rt = await startLocalRuntime({
    memory: true,
    engines: createRegistry([diceRace]),
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `client-${Date.now().toString(36)}`,
  });
});
afterAll(async () => {
  await rt?.stop();
});

describe('a client generated from the API document', () => {
  it('is up to date: web/src/api-types.ts is what openapi-typescript makes of the document now', async () => {
    expect(readFileSync(API_TYPES_FILE, 'utf8')).toBe(await apiTypesSource());
  });

  it('creates a game, takes the second seat and makes a move, typed end to end', async () => {
    const api = createClient<paths>({ baseUrl: rt.url });
    const as = (player: string) => ({ authorization: `Bearer ${rt.issueToken(player)}` });

    const created = await api.POST('/v1/games', { headers: as('alice'), body: { engine: 'dice-race', seat: 'p1', commandId: cid('create') } });
    expect(created.response.status).toBe(201);
    const id = created.data!.gameId;
    const joined = await api.POST('/v1/games/{id}/join', { headers: as('bob'), params: { path: { id } }, body: { commandId: cid('join') } });
    expect(joined.data!.next.status).toBe('active');

    // Whoever the game waits for moves: bob's reply lists it in `yours` or `waitingFor`.
    const first = [...joined.data!.next.yours, ...joined.data!.next.waitingFor][0]!.seat;
    const mover = joined.data!.seats.find((s) => s.id === first)!.player!;
    const moved = await api.POST('/v1/games/{id}/commands', {
      headers: as(mover),
      params: { path: { id } },
      body: { commandId: cid('roll'), command: { type: 'Roll' }, expectedVersion: joined.data!.version },
    });
    expect(moved.error).toBeUndefined();
    expect(moved.data!.version).toBeGreaterThan(joined.data!.version);
    expect(moved.data!.events.map((e) => e.type)).toContain('Rolled');

    // A refusal arrives typed as the document's error body.
    const again = await api.POST('/v1/games/{id}/commands', {
      headers: as(mover),
      params: { path: { id } },
      body: { commandId: cid('stale'), command: { type: 'Roll' }, expectedVersion: 0 },
    });
    expect(again.response.status).toBe(409);
    expect(again.error!.code).toBe('version/conflict');
  });
});
