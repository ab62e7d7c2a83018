import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { diceRace } from '../fixtures/dice-race.js';
import { cid, http } from './support.js';

/**
 * A club's vacationDaysPerYear applies to its members (issue 10: "set by the server or a club"):
 * a member's yearly allowance is the most generous of the server's (30 days here) and those of
 * the clubs they belong to; a club with fewer days cannot cut it, and leaving the club takes its
 * days away again.
 */
let rt: LocalRuntime;
let api: ReturnType<typeof http>;
const token: Record<string, string> = {};

beforeAll(async () => {
  rt = await startLocalRuntime({
    memory: true,
    engines: createRegistry([diceRace]),
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `club-vacation-${Date.now().toString(36)}`,
  });
  api = http(rt.url);
  for (const p of ['dora', 'ann', 'bob', 'constructor']) token[p] = rt.issueToken(p);
}, 60_000);
afterAll(async () => {
  await rt?.stop();
});

const allowance = async (p: string) => (await api.get('/v1/me/vacation', token[p])).body.allowanceDays as number;
const club = async (name: string, days: number | undefined, code: string) => {
  const c = await api.post('/v1/clubs', token['dora'], { name, joinCode: code, commandId: cid('club') });
  expect(c.status).toBe(201);
  const id = c.body.clubId as string;
  if (days !== undefined)
    expect((await api.call('PUT', `/v1/clubs/${id}/settings`, { token: token['dora'], body: { settings: { vacationDaysPerYear: days } } })).status).toBe(200);
  return id;
};

describe("a club's vacation allowance", () => {
  it('members get the most generous of the server and their clubs', { timeout: 60_000 }, async () => {
    const stingy = await club('Stingy', 10, 'stingy-1');
    const generous = await club('Generous', 45, 'generous-1');
    // The owner is a member of both: 45. A player in no club: the server's 30.
    expect(await allowance('dora')).toBe(45);
    expect(await allowance('bob')).toBe(30);
    // A club with fewer days does not cut the server's.
    for (const p of ['ann', 'bob', 'constructor']) expect((await api.post(`/v1/clubs/${stingy}/join`, token[p], { joinCode: 'stingy-1' })).status).toBe(200);
    expect(await allowance('ann')).toBe(30);
    expect(await allowance('constructor')).toBe(30);
    expect((await api.post(`/v1/clubs/${generous}/join`, token['ann'], { joinCode: 'generous-1' })).status).toBe(200);
    expect(await allowance('ann')).toBe(45);
    // The leave is measured against it: 40 days is fine for ann, a 422 for bob.
    expect((await api.call('PUT', '/v1/me/vacation', { token: token['ann'], body: { away: true, days: 40 } })).body).toMatchObject({
      allowanceDays: 45,
      usedDays: 40,
      leftDays: 5,
    });
    expect((await api.call('PUT', '/v1/me/vacation', { token: token['bob'], body: { away: true, days: 40 } })).body).toMatchObject({
      code: 'vacation/over-allowance',
    });
    // The club changes its allowance: every member follows.
    expect((await api.call('PUT', `/v1/clubs/${stingy}/settings`, { token: token['dora'], body: { settings: { vacationDaysPerYear: 60 } } })).status).toBe(200);
    expect(await allowance('bob')).toBe(60);
    expect(await allowance('constructor')).toBe(60);
    // bob leaves: back to the server's.
    expect((await api.call('DELETE', `/v1/clubs/${stingy}/members/bob`, { token: token['bob'], body: {} })).status).toBe(200);
    expect(await allowance('bob')).toBe(30);
  });
});
