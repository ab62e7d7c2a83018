import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seededRng, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { registry } from '../../domain/registry.js';
import { SCENARIO_IDS } from '../../domain/spearpoint-map/data/scenarios.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { cid, http } from './support.js';

/**
 * The map expansion end to end: alice (us) and bob (de) play every scenario GET /v1/engines lists
 * over real HTTP on this run's DynamoDB Local (one runtime), choosing only among the legalCommands
 * the server lists for each seat, until the game ends; each export then verifies. Gunter's Return
 * plays to its own win condition; the others are bounded by the `maxTurns` option (a Fieldpost
 * bound: the game ends on points) so each takes seconds.
 */
type Side = 'us' | 'de';
type Command = { type: string; [k: string]: unknown };

let rt: LocalRuntime;
let api: ReturnType<typeof http>;
const tokens = {} as Record<Side, string>;

beforeAll(async () => {
  rt = await startLocalRuntime({ memory: true, engines: registry, dynamoEndpoint: inject('dynamoEndpoint'), tableName: `spm-e2e-${Date.now().toString(36)}` });
  api = http(rt.url);
  for (const [seat, player] of [
    ['us', 'alice'],
    ['de', 'bob'],
  ] as const) {
    const r = await api.post('/local/token', undefined, { player });
    expect(r.status).toBe(200);
    tokens[seat] = r.body.token as string;
  }
});
afterAll(async () => {
  await rt?.stop();
});

/** Creates a game, plays seeded random listed commands for whichever seat the server says is pending, returns the verified export. */
async function playToEnd(options: Record<string, unknown>, seed: string) {
  const created = await api.post('/v1/games', tokens.us, { engine: 'spearpoint-1943-map', options, seat: 'us', commandId: cid('create') });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const gameId = created.body.gameId as string;
  expect((await api.post(`/v1/games/${gameId}/join`, tokens.de, { commandId: cid('join') })).status).toBe(200);
  const r = seededRng({ seed, gameId: 'chooser', entropy: [], counter: 0 });
  const sent = { us: 0, de: 0 };
  for (let n = 0; ; n++) {
    expect(n, 'the game ends').toBeLessThan(3000);
    const v = await api.get(`/v1/games/${gameId}`, tokens.us);
    expect(v.status).toBe(200);
    if (v.body.summary.status === 'ended') break;
    const seat = (v.body.pending as { seat: Side }[])[0]!.seat;
    const mine = seat === 'us' ? v : await api.get(`/v1/games/${gameId}`, tokens.de);
    const legal = mine.body.legalCommands as Command[];
    expect(legal.length, 'a game not ended lists a command for the pending seat').toBeGreaterThan(0);
    const busy = legal.filter((c) => c.type !== 'Done');
    const command = busy.length && r.int(4) ? busy[r.int(busy.length)]! : legal[r.int(legal.length)]!;
    const res = await api.post(`/v1/games/${gameId}/commands`, tokens[seat], { commandId: cid(seat), command, expectedVersion: mine.body.summary.version });
    expect(res.status, `${JSON.stringify(command)} → ${JSON.stringify(res.body)}`).toBe(200);
    sent[seat]++;
  }
  const ex = await api.get(`/v1/games/${gameId}/export`, tokens.us);
  expect(ex.status).toBe(200);
  const events = ex.body.events as EventEnvelope[];
  expect(events.at(-1)!.type).toBe('Game.Ended');
  const report = verifyLog(events, registry.get);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
  expect(sent.us, 'the US played').toBeGreaterThan(0);
  expect(sent.de, 'Germany played').toBeGreaterThan(0);
  return report.outcome as { reason: string } | undefined;
}

describe('spearpoint-1943-map over HTTP', () => {
  it('lists every scenario, the Expansion Standard Game too, with a name and a line each', async () => {
    const r = await api.get('/v1/engines', tokens.us);
    expect(r.status).toBe(200);
    const list = (r.body.engines ?? r.body) as {
      id: string;
      scenarios?: { option: string; choices: { id: string; title: string; description: string }[] };
    }[];
    const map = list.find((e) => e.id === 'spearpoint-1943-map')!;
    expect(map.scenarios!.option).toBe('scenario');
    expect(map.scenarios!.choices.map((c) => c.id)).toEqual(SCENARIO_IDS);
    expect(map.scenarios!.choices.map((c) => c.id)).toContain('standard-game');
    for (const c of map.scenarios!.choices) {
      expect(c.title.length).toBeGreaterThan(3);
      expect(c.description.length).toBeGreaterThan(10);
    }
  });

  it("plays Gunter's Return to its own end (the Command Post) through the listed commands; the export verifies", async () => {
    expect((await playToEnd({ scenario: 'gunters-return' }, 'e2'.repeat(32)))?.reason).toMatch(/Command Post/);
  }, 400_000);

  for (const scenario of SCENARIO_IDS.filter((x) => x !== 'gunters-return'))
    it(`plays ${scenario} to its end (at most 2 turns) for both sides through the listed commands; the export verifies`, async () => {
      expect((await playToEnd({ scenario, maxTurns: 2 }, 'e3'.repeat(32)))?.reason.length).toBeGreaterThan(0);
    }, 120_000);
});
