import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { relayRaid } from '../fixtures/relay-raid.js';
import { forgeOne } from '../kernel/forge.js';
import { cid, http } from './support.js';

/**
 * Decision windows, standing orders and sides end to end over HTTP on DynamoDB Local, with the
 * Relay Raid fixture: four players on two sides; a window answered by its seat, one answered by
 * a standing order in the same append, one lapsed to its default by the scheduler's call after
 * its deadline; the export verifies, and a lapse moved before its deadline does not.
 */
const engines = createRegistry([relayRaid]);
const HOUR = 3_600_000;
let now = Date.parse('2026-06-01T09:00:00.000Z');
const clock = { now: () => new Date(now).toISOString() };
const advance = (hours: number) => (now += hours * HOUR);

let rt: LocalRuntime;
let api: ReturnType<typeof http>;
const token: Record<string, string> = {};
const SEATS = { n1: 'ann', s1: 'sam', n2: 'ned', s2: 'sue' } as const;

beforeAll(async () => {
  rt = await startLocalRuntime({ memory: true, engines, clock, dynamoEndpoint: inject('dynamoEndpoint'), tableName: `windows-${Date.now().toString(36)}` });
  api = http(rt.url);
  for (const p of Object.values(SEATS)) token[p] = rt.issueToken(p);
});
afterAll(async () => {
  await rt?.stop();
});

const put = (path: string, player: string, body: unknown) => api.call('PUT', path, { token: token[player]!, body });
const send = (gameId: string, player: string, type: string) =>
  api.post(`/v1/games/${gameId}/commands`, token[player], { commandId: cid(type), command: { type } });
const types = (evs: { type: string }[]) => evs.map((e) => e.type);

async function startedRaid(): Promise<string> {
  const c = await api.post('/v1/games', token['ann'], { engine: 'relay-raid', seat: 'n1', timeLimitHours: 24, windowShare: 0.25, commandId: cid('create') });
  expect(c.status).toBe(201);
  for (const [seat, p] of Object.entries(SEATS).slice(1))
    expect((await api.post(`/v1/games/${c.body.gameId}/join`, token[p], { seat, commandId: cid('join') })).status).toBe(200);
  return c.body.gameId;
}

describe('GET /v1/engines', () => {
  it('lists every engine with seats, sides, options as JSON Schema and standing-order rules, without a token', async () => {
    const r = await api.get('/v1/engines');
    expect(r.status).toBe(200);
    const [raid] = r.body.engines;
    expect(raid).toMatchObject({
      id: 'relay-raid',
      title: 'Relay Raid (test fixture)',
      seats: [2, 4],
      sides: [
        { id: 'north', name: 'North' },
        { id: 'south', name: 'South' },
      ],
      options: { type: 'object', properties: { target: { type: 'integer', default: 3 } }, additionalProperties: false },
      drafts: false,
    });
    expect(raid.standingOrders.map((o: { rule: string }) => o.rule)).toEqual(['always', 'never', 'when-behind']);
  });
});

describe('a four-player game on two sides', () => {
  it('plays windows answered, auto-answered and lapsed, and its export verifies', async () => {
    const gameId = await startedRaid();
    const view = async (p: string) => (await api.get(`/v1/games/${gameId}`, token[p])).body;
    expect((await view('ned')).summary.seats.map((s: { id: string; side: string }) => `${s.id}:${s.side}`)).toEqual([
      'n1:north',
      's1:south',
      'n2:north',
      's2:south',
    ]);

    // 1. Answered by its seat.
    let r = await send(gameId, 'ann', 'Advance');
    expect(r.status).toBe(200);
    const asked = await view('sam');
    expect(asked.pending).toEqual([
      expect.objectContaining({ seat: 's1', player: 'sam', window: expect.objectContaining({ id: 'intercept-1', default: { type: 'Pass' } }) }),
    ]);
    expect(asked.pending[0].deadline).toBe(new Date(now + 6 * HOUR).toISOString());
    expect(asked.legalCommands).toEqual([{ type: 'Intercept' }, { type: 'Pass' }]);
    r = await send(gameId, 'sam', 'Pass');
    expect(types(r.body.events)).toEqual(['Game.CommandAccepted', 'LetThrough']);

    // 2. Answered by a standing order, in the same append as the advance.
    const so = await put(`/v1/games/${gameId}/standing-orders`, 'ned', { commandId: cid('so'), orders: [{ topic: 'intercept', rule: 'never' }] });
    expect(so.status).toBe(200);
    expect((await view('ned')).standingOrders).toEqual([{ topic: 'intercept', rule: 'never' }]);
    expect((await view('sam')).standingOrders).toEqual([]);
    const before = (await view('ann')).summary.version;
    r = await send(gameId, 'sam', 'Advance');
    expect(types(r.body.events)).toEqual(['Game.CommandAccepted', 'Advanced', 'LetThrough']);
    expect(r.body.version).toBe(before + 4);
    const feed = async (p: string) => types((await api.get(`/v1/games/${gameId}/events?after=${before}`, token[p])).body.events);
    expect(await feed('ned')).toEqual(['Advanced', 'Game.StandingOrderApplied', 'LetThrough']);
    expect(await feed('ann')).toEqual(['Advanced', 'LetThrough']);

    // 3. Nobody answers: after the deadline the scheduler's call takes the default.
    expect((await send(gameId, 'ned', 'Advance')).status).toBe(200);
    expect((await view('sue')).pending[0].window.id).toBe('intercept-3');
    expect(await rt.deps.service.runDeadlines(gameId)).toMatchObject({ lapsed: [], timedOut: false });
    const early = await api.post(`/v1/games/${gameId}/lapse`, token['ann'], { commandId: cid('lapse'), window: 'intercept-3' });
    expect(early).toMatchObject({ status: 422, body: { code: 'time/not-yet' } });
    advance(6);
    expect(await rt.deps.service.runDeadlines(gameId)).toMatchObject({ lapsed: ['intercept-3'], timedOut: false });
    expect(await rt.deps.service.runDeadlines(gameId)).toMatchObject({ lapsed: [], timedOut: false });
    expect((await view('sue')).pending).toEqual([expect.objectContaining({ seat: 's2', kind: 'move' })]);

    // A resignation loses for the whole side: the export opens, and verifies.
    const res = await api.post(`/v1/games/${gameId}/resign`, token['sue'], { commandId: cid('resign') });
    expect(res.status).toBe(200);
    const exp = await api.get(`/v1/games/${gameId}/export`, token['ann']);
    expect(exp.status).toBe(200);
    const log = exp.body.events as EventEnvelope[];
    expect(log.find((e) => e.type === 'Game.Ended')!.data).toMatchObject({ outcome: { winners: ['n1', 'n2'] } });
    expect(verifyLog(log, engines.get)).toMatchObject({ ok: true, problems: [] });

    // The same log with the lapse moved an hour before its deadline is refused.
    const i = log.findIndex((e) => e.type === 'Game.WindowLapsed');
    expect(log[i]).toMatchObject({ player: null, actor: null });
    const forged = forgeOne(log, i, { at: new Date(Date.parse(log[i]!.at) - HOUR).toISOString() });
    const report = verifyLog(forged, engines.get);
    expect(report.ok).toBe(false);
    expect(report.problems.join(' ')).toContain('to answer');
  });

  it('refuses bad standing orders and lapses with a 4xx that names the problem, writing nothing', async () => {
    const gameId = await startedRaid();
    const version = (await api.get(`/v1/games/${gameId}`, token['sam'])).body.summary.version;
    const bad = await put(`/v1/games/${gameId}/standing-orders`, 'sam', { commandId: cid('so'), orders: [{ topic: 'intercept', rule: 'sometimes' }] });
    expect(bad).toMatchObject({ status: 422, body: { code: 'standing/unknown-rule' } });
    const shape = await put(`/v1/games/${gameId}/standing-orders`, 'sam', { commandId: cid('so'), orders: 'never' });
    expect(shape).toMatchObject({ status: 400, body: { code: 'http/invalid-request' } });
    const none = await api.post(`/v1/games/${gameId}/lapse`, token['sam'], { commandId: cid('lapse'), window: '__proto__' });
    expect(none).toMatchObject({ status: 422, body: { code: 'window/not-open' } });
    expect((await api.get(`/v1/games/${gameId}`, token['sam'])).body.summary.version).toBe(version);
  });
});
