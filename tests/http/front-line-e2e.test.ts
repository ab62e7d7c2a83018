import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seededRng, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { registry } from '../../domain/registry.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { cid, http } from './support.js';

/**
 * Front Line end to end: four players with local tokens play an Allies game to the end over
 * real HTTP (the local runtime with the real registry, on this run's DynamoDB Local), each
 * choosing only among the legal commands the server lists for it, windows included; the
 * export verifies; and two players play a game on each battlefield to the end (a club Items card
 * where no built-in one exists). The engine is found through GET /v1/engines. About 130 commands; the
 * generous timeout is for a loaded machine.
 */
type Command = { type: string; [k: string]: unknown };
const PLAYERS = { red1: 'rita', green1: 'gus', red2: 'ray', green2: 'gwen' } as const;
type SeatId = keyof typeof PLAYERS;

let rt: LocalRuntime;
let api: ReturnType<typeof http>;
const token = {} as Record<SeatId, string>;

beforeAll(async () => {
  rt = await startLocalRuntime({ memory: true, engines: registry, dynamoEndpoint: inject('dynamoEndpoint'), tableName: `fl-e2e-${Date.now().toString(36)}` });
  api = http(rt.url);
  for (const [seat, player] of Object.entries(PLAYERS)) token[seat as SeatId] = rt.issueToken(player);
});
afterAll(async () => {
  await rt?.stop();
});

/** Progress-minded: the recommended set-up, turns that end soon, otherwise a random legal command. */
function choose(legal: readonly Command[], r: ReturnType<typeof seededRng>): Command {
  const of = (t: string) => legal.find((c) => c.type === t);
  const rec = of('PlaceRecommended') ?? of('FinishSetup');
  if (rec) return rec;
  const end = of('EndTurn');
  if (end && r.int(2) === 0) return end;
  const attacks = legal.filter((c) => c.type === 'Attack');
  if (attacks.length && r.int(2) === 0) return attacks[r.int(attacks.length)]!;
  return legal[r.int(legal.length)]!;
}

describe('Front Line over HTTP', () => {
  it('is listed with its battlefields, seats [2, 4] and standing orders', async () => {
    const r = await api.get('/v1/engines');
    expect(r.status).toBe(200);
    const fl = (r.body.engines as { id: string }[]).find((e) => e.id === 'front-line') as unknown as Record<string, unknown> & {
      scenarios: { choices: { id: string }[] };
    };
    expect(fl).toMatchObject({ seats: [2, 4], scenarios: { option: 'battlefield' } });
    expect(fl.scenarios.choices.map((c) => c.id)).toEqual(['main', 'lake-nogo', 'mt-range', 'great-desert']);
    expect((fl.standingOrders as { topic: string; rule: string }[]).map((o) => `${o.topic}/${o.rule}`)).toContain('opportunity-fire/when');
  });

  it('every battlefield starts from its listed option; bad input is refused with a code and writes nothing', async () => {
    for (const battlefield of ['main', 'lake-nogo', 'mt-range', 'great-desert']) {
      const c = await api.post('/v1/games', token.green1, { engine: 'front-line', options: { battlefield }, seat: 'green', commandId: cid('create') });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
      const gameId = c.body.gameId as string;
      expect((await api.post(`/v1/games/${gameId}/join`, token.red1, { seat: 'red', commandId: cid('join') })).status).toBe(200);
      const look = await api.get(`/v1/games/${gameId}`, token.green1);
      expect(look.body.view.battlefield).toBe(battlefield);
      expect((look.body.legalCommands as Command[]).some((x) => x.type === 'PlaceUnit')).toBe(true);
      const version = look.body.summary.version as number;
      for (const command of [
        { type: 'PlaceUnit', kind: 'infantry', square: '__proto__' },
        { type: 'PlaceUnit', kind: 'constructor', square: 'A1' },
        { type: 'Move', unit: '__proto__', to: 'A1' },
        { type: 'ChooseFirst', seat: 'toString' },
      ]) {
        const r = await api.post(`/v1/games/${gameId}/commands`, token.green1, { commandId: cid('bad'), command });
        expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(400);
        expect(r.status).toBeLessThan(500);
        expect(r.body.code).toMatch(/^[a-z-]+\/[a-z-]+$/);
      }
      expect((await api.get(`/v1/games/${gameId}`, token.green1)).body.summary.version).toBe(version);
    }
    const bad = await api.post('/v1/games', token.green1, {
      engine: 'front-line',
      options: { battlefield: '__proto__' },
      seat: 'green',
      commandId: cid('create'),
    });
    expect(bad.status).toBe(400);
  });

  it('two players play a game on every battlefield to the end through the listed legal commands, all four at once', async () => {
    const tok = { green: token.green1, red: token.red1 };
    // A club's own Items card on the boards with no built-in one, so every game starts with PlaceRecommended.
    const items = [
      ...['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'B1', 'B2', 'B3'].map((square) => ({ kind: 'infantry', square })),
      ...['C1', 'C2', 'C3', 'C4'].map((square) => ({ kind: 'tank', square })),
      ...['B5', 'B6'].map((square) => ({ kind: 'artillery', square })),
    ];
    const playToEnd = async (battlefield: string, seed: string) => {
      const options = { battlefield, ...(battlefield === 'main' ? {} : { recommended: items }) };
      const created = await api.post('/v1/games', tok.green, { engine: 'front-line', options, seat: 'green', commandId: cid('create') });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const gameId = created.body.gameId as string;
      expect((await api.post(`/v1/games/${gameId}/join`, tok.red, { seat: 'red', commandId: cid('join') })).status).toBe(200);
      const r = seededRng({ seed, gameId: battlefield, entropy: [], counter: 0 });
      let seat: keyof typeof tok = 'green';
      let commands = 0;
      for (;;) {
        let look = await api.get(`/v1/games/${gameId}`, tok[seat]);
        if (look.body.summary.status === 'ended') return { gameId, commands };
        const pending = look.body.pending as { seat: keyof typeof tok }[];
        expect(pending.length, 'someone must be asked').toBeGreaterThan(0);
        // Ask as the seat the game waits for (one read when it is the same seat again).
        if (!pending.some((p) => p.seat === seat)) {
          seat = pending[0]!.seat;
          look = await api.get(`/v1/games/${gameId}`, tok[seat]);
        }
        const legal = look.body.legalCommands as Command[];
        expect(legal.length, `${seat} is pending but offered nothing`).toBeGreaterThan(0);
        // Brisk: turns that end soon, otherwise a random legal command.
        const end = legal.find((c) => c.type === 'EndTurn');
        const command = end && r.int(3) === 0 ? end : choose(legal, r);
        const res = await api.post(`/v1/games/${gameId}/commands`, tok[seat], { commandId: cid(seat), command, expectedVersion: look.body.summary.version });
        expect(res.status, `${battlefield}: ${JSON.stringify(command)} → ${JSON.stringify(res.body)}`).toBe(200);
        if (++commands > 1500) throw new Error(`${battlefield}: the game did not end`);
      }
    };
    const games = await Promise.all(['main', 'lake-nogo', 'mt-range', 'great-desert'].map((b, i) => playToEnd(b, `${'f1'.repeat(31)}0${i}`)));
    for (const g of games) {
      // Set-up (2 + 2), the first-player choice, and at least 24 turns ended.
      expect(g.commands).toBeGreaterThanOrEqual(29);
      const exp = await api.get(`/v1/games/${g.gameId}/export`, tok.red);
      expect(exp.status).toBe(200);
      expect(verifyLog(exp.body.events as EventEnvelope[], registry.get)).toMatchObject({ ok: true, problems: [] });
    }
  }, 300_000);

  it('four players play an Allies game to the end through the listed legal commands; the export verifies', async () => {
    const created = await api.post('/v1/games', token.red1, { engine: 'front-line', options: { allies: true }, seat: 'red1', commandId: cid('create') });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const gameId = created.body.gameId as string;
    for (const seat of ['green1', 'red2', 'green2'] as const)
      expect((await api.post(`/v1/games/${gameId}/join`, token[seat], { seat, commandId: cid('join') })).status).toBe(200);

    const r = seededRng({ seed: 'e2'.repeat(32), gameId: 'chooser', entropy: [], counter: 0 });
    let commands = 0;
    const sent = new Set<string>();
    for (;;) {
      const look = await api.get(`/v1/games/${gameId}`, token.red1);
      expect(look.status).toBe(200);
      if (look.body.summary.status === 'ended') break;
      const pending = look.body.pending as { seat: SeatId }[];
      expect(pending.length, 'someone must be asked').toBeGreaterThan(0);
      const seat = pending[r.int(pending.length)]!.seat;
      const mine = await api.get(`/v1/games/${gameId}`, token[seat]);
      const legal = mine.body.legalCommands as Command[];
      expect(legal.length, `${seat} is pending but offered nothing`).toBeGreaterThan(0);
      const command = choose(legal, r);
      const res = await api.post(`/v1/games/${gameId}/commands`, token[seat], { commandId: cid(seat), command, expectedVersion: look.body.summary.version });
      expect(res.status, `${JSON.stringify(command)} → ${JSON.stringify(res.body)}`).toBe(200);
      sent.add(command.type);
      if (++commands > 1500) throw new Error('the game did not end');
    }
    expect(sent).toContain('PlaceRecommended');
    expect(sent).toContain('Attack');
    const exp = await api.get(`/v1/games/${gameId}/export`, token.green2);
    expect(exp.status).toBe(200);
    const log = exp.body.events as EventEnvelope[];
    expect(log.find((e) => e.type === 'Game.Ended')).toBeDefined();
    expect(verifyLog(log, registry.get)).toMatchObject({ ok: true, problems: [] });
  }, 180_000);
});
