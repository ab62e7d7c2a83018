import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seededRng, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { registry } from '../../domain/registry.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { cid, http } from './support.js';

/**
 * Action Front! end to end: the engine is listed by GET /v1/engines with its scenarios and its
 * options schema; every listed scenario and both builder types are created from that listing;
 * two players with local tokens play a scenario and a builder Meeting Engagement over real HTTP
 * (the local runtime on this run's DynamoDB Local) to the end, choosing only among the legal
 * commands the server lists; each export verifies, every card re-derived from the revealed seed.
 * Every scenario and builder type is also played to the end through the kernel in
 * tests/action-front/fuzz.test.ts.
 */
type Seat = 'allies' | 'axis';
type Command = { type: string; [k: string]: unknown };

let rt: LocalRuntime;
let api: ReturnType<typeof http>;
const tokens = {} as Record<Seat, string>;

beforeAll(async () => {
  rt = await startLocalRuntime({ memory: true, engines: registry, dynamoEndpoint: inject('dynamoEndpoint'), tableName: `af-e2e-${Date.now().toString(36)}` });
  api = http(rt.url);
  const token = async (player: string) => (await api.post('/local/token', undefined, { player })).body.token as string;
  [tokens.allies, tokens.axis] = await Promise.all([token('alice'), token('bob')]);
});
afterAll(async () => {
  await rt?.stop();
});

async function playGame(options: unknown, seed: string) {
  const created = await api.post('/v1/games', tokens.allies, { engine: 'action-front', options, seat: 'allies', commandId: cid('create') });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const gameId = created.body.gameId as string;
  expect((await api.post(`/v1/games/${gameId}/join`, tokens.axis, { commandId: cid('join') })).status).toBe(200);
  const r = seededRng({ seed, gameId: 'chooser', entropy: [], counter: 0 });
  const types = new Set<string>();
  const t0 = Date.now();
  let n = 0;
  for (; ; n++) {
    expect(n, 'the game ends').toBeLessThan(1500);
    const look = await api.get(`/v1/games/${gameId}`, tokens.allies);
    expect(look.status).toBe(200);
    if (look.body.summary.status === 'ended') break;
    const pending = look.body.pending as { seat: Seat }[];
    expect(pending.length).toBeGreaterThan(0);
    const seat = pending[r.int(pending.length)]!.seat;
    const mine = seat === 'allies' ? look : await api.get(`/v1/games/${gameId}`, tokens[seat]);
    const legal = mine.body.legalCommands as Command[];
    expect(legal.length, `${seat} is pending but offered nothing`).toBeGreaterThan(0);
    // Favour attacks, then ending the phase, so a game is short but sees combat.
    const attacks = legal.filter((c) => ['Fire', 'IndirectFire', 'CallFireSupport', 'CallAirStrike'].includes(c.type));
    const ends = legal.filter((c) => c.type.startsWith('End'));
    const command = attacks.length && r.int(2) ? attacks[r.int(attacks.length)]! : ends.length && r.int(2) ? ends[0]! : legal[r.int(legal.length)]!;
    const res = await api.post(`/v1/games/${gameId}/commands`, tokens[seat], { commandId: cid(seat), command, expectedVersion: mine.body.summary.version });
    expect(res.status, `${JSON.stringify(command)} → ${JSON.stringify(res.body)}`).toBe(200);
    types.add(command.type);
  }
  console.log(`${JSON.stringify(options)}: ${n} commands in ${Date.now() - t0} ms`);
  const ex = await api.get(`/v1/games/${gameId}/export`, tokens.axis);
  expect(ex.status).toBe(200);
  const events = ex.body.events as EventEnvelope[];
  const report = verifyLog(events, registry.get);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
  return { events, types };
}

describe('Action Front! over HTTP', () => {
  it('is listed with its scenarios and options', async () => {
    const res = await api.get('/v1/engines');
    const engine = (res.body.engines as { id: string; scenarios?: { option: string; choices: { id: string }[] } }[]).find((e) => e.id === 'action-front');
    expect(engine?.scenarios?.option).toBe('scenario');
    expect(engine?.scenarios?.choices.map((c) => c.id)).toEqual(['edsons-ridge', 'bocage', 'river-crossing']);
  });

  it('creates every listed scenario and both builder types, read from the listing and its options schema; each starts with commands to choose from', async () => {
    type Listed = {
      id: string;
      scenarios: { option: string; choices: { id: string }[] };
      options: { properties: { builder: { properties: { type: { enum: string[] } } } } };
    };
    const engine = ((await api.get('/v1/engines')).body.engines as Listed[]).find((e) => e.id === 'action-front')!;
    const builderTypes = engine.options.properties.builder.properties.type.enum;
    expect(builderTypes).toEqual(['point-defense', 'meeting-engagement']);
    const all = [...engine.scenarios.choices.map((c) => ({ [engine.scenarios.option]: c.id })), ...builderTypes.map((type) => ({ builder: { type } }))];
    for (const options of all) {
      const created = await api.post('/v1/games', tokens.allies, { engine: 'action-front', options, seat: 'allies', commandId: cid('create') });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const gameId = created.body.gameId as string;
      expect((await api.post(`/v1/games/${gameId}/join`, tokens.axis, { commandId: cid('join') })).status).toBe(200);
      const look = await api.get(`/v1/games/${gameId}`, tokens.allies);
      const seat = (look.body.pending as { seat: Seat }[])[0]!.seat;
      const mine = seat === 'allies' ? look : await api.get(`/v1/games/${gameId}`, tokens[seat]);
      expect((mine.body.legalCommands as Command[]).length, JSON.stringify(options)).toBeGreaterThan(0);
    }
  }, 60_000);

  it('plays a Meeting Engagement from the scenario builder to the end: forces chosen in secret, set-up, reinforcements; the export verifies', async () => {
    const { types } = await playGame({ builder: { type: 'meeting-engagement' } }, '5b'.repeat(32));
    for (const t of ['ChooseForce', 'PlaceUnit', 'EndActions']) expect(types).toContain(t);
  }, 240_000);

  it("plays Edson's Ridge to the end choosing only listed commands; the export verifies and a changed card does not", async () => {
    const { events, types } = await playGame({ scenario: 'edsons-ridge' }, '7e'.repeat(32));
    for (const t of ['PlaceUnit', 'EndActions']) expect(types).toContain(t);
    const i = events.findIndex((e) => e.type === 'CardsDrawn');
    expect(i).toBeGreaterThan(0);
    const forged = events.map((e, k) => (k === i ? { ...e, data: { ...(e.data as object), cards: ['AS'] } } : e));
    expect(verifyLog(forged, registry.get).ok).toBe(false);
  }, 120_000);
});
