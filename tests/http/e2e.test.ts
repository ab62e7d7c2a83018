import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { signLocalJwt } from '../../functions/http/jwt.js';
import { diceRace } from '../fixtures/dice-race.js';
import { tally } from '../app/tally.js';
import { cid, http, itemCount } from './support.js';

/**
 * End to end over real HTTP: the local runtime in-process (the same router the Lambda uses,
 * node:http on 127.0.0.1) on this run's DynamoDB Local with a table of its own, and players
 * with local tokens. (persistence.test.ts and start.test.ts start DynamoDB Local themselves.)
 */
const engines = createRegistry([diceRace, tally]);
let rt: LocalRuntime;
let api: ReturnType<typeof http>;
let alice: string;
let bob: string;
let carol: string;

beforeAll(async () => {
  rt = await startLocalRuntime({ memory: true, engines, dynamoEndpoint: inject('dynamoEndpoint'), tableName: `e2e-${Date.now().toString(36)}` });
  api = http(rt.url);
  const token = async (player: string) => {
    const r = await api.post('/local/token', undefined, { player });
    expect(r.status).toBe(200);
    return r.body.token as string;
  };
  [alice, bob, carol] = await Promise.all([token('alice'), token('bob'), token('carol')]);
});
afterAll(async () => {
  await rt?.stop();
});

const count = () => itemCount(rt.client, rt.tableName);

/** A two-seat dice race between alice (p1) and bob (p2), started. */
async function startedRace(target = 15): Promise<string> {
  const c = await api.post('/v1/games', alice, { engine: 'dice-race', options: { target }, seat: 'p1', entropy: 'alice-noise', commandId: cid('create') });
  expect(c.status).toBe(201);
  expect(c.headers.get('location')).toBe(`/v1/games/${c.body.gameId}`);
  const j = await api.post(`/v1/games/${c.body.gameId}/join`, bob, { entropy: 'bob-noise', commandId: cid('join') });
  expect(j.status).toBe(200);
  return c.body.gameId as string;
}

async function tallyGame(): Promise<string> {
  const c = await api.post('/v1/games', alice, { engine: 'tally', seat: 'a', commandId: cid('create') });
  expect(c.status).toBe(201);
  expect((await api.post(`/v1/games/${c.body.gameId}/join`, bob, { commandId: cid('join') })).status).toBe(200);
  return c.body.gameId as string;
}

describe('health and tokens', () => {
  it('serves /v1/health without a token and lists the engines', async () => {
    const r = await api.get('/v1/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, engines: ['dice-race', 'tally'] });
  });
  it('POST /local/token refuses a bad player name and malformed JSON', async () => {
    expect((await api.post('/local/token', undefined, { player: 'has space' })).status).toBe(400);
    expect((await api.call('POST', '/local/token', { raw: '{nope' })).status).toBe(400);
    expect((await api.get('/local/token')).status).toBe(405);
  });
});

describe('the local game page (where links in local mail land)', () => {
  it("shows a game's public summary and how to play it, and nothing hidden", async () => {
    const gameId = await startedRace();
    const page = await fetch(`${rt.url}/games/${gameId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('Dice Race (test fixture): active');
    expect(html).toContain('Player 1 (alice): Roll a die or play your card');
    expect(html).toContain(`npm run cli -- show ${gameId}`);
    expect(html).not.toMatch(/"hands"|DeckShuffled|seed/);
    expect((await fetch(`${rt.url}/games/no-such-game`)).status).toBe(404);
  });
});

describe('a full dice race over HTTP', () => {
  it('two players play to the end, export the log, and it verifies', async () => {
    const gameId = await startedRace();
    const tokens: Record<string, string> = { p1: alice, p2: bob };
    let moves = 0;
    for (; moves < 200; moves++) {
      const v = await api.get(`/v1/games/${gameId}`, alice);
      expect(v.status).toBe(200);
      if (v.body.summary.status === 'ended') break;
      const seat = v.body.pending[0].seat as string;
      const me = await api.get(`/v1/games/${gameId}`, tokens[seat]);
      expect(me.body.seat).toBe(seat);
      const legal = me.body.legalCommands as { type: string }[];
      expect(legal.length).toBeGreaterThan(0);
      const command = legal[moves % legal.length]!;
      const r = await api.post(`/v1/games/${gameId}/commands`, tokens[seat], { commandId: cid('move'), command, expectedVersion: me.body.summary.version });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.version).toBeGreaterThan(me.body.summary.version);
    }
    expect(moves).toBeGreaterThan(2);

    // While it ran nobody saw the hidden deck; now it has ended, everything opens.
    const ended = await api.get(`/v1/games/${gameId}`, bob);
    expect(ended.body.summary.status).toBe('ended');
    expect(ended.body.summary.outcome.winners).toHaveLength(1);

    const ex = await api.get(`/v1/games/${gameId}/export`, carol);
    expect(ex.status).toBe(200);
    const events = ex.body.events as EventEnvelope[];
    expect(ex.body.version).toBe(events.length);
    expect(events.at(-1)!.type).toBe('Game.Ended');
    const report = verifyLog(events, (id) => engines.get(id));
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.draws).toBeGreaterThan(0);

    // One byte changed in one die: the audit fails.
    const tampered = JSON.parse(JSON.stringify(events).replace(/"die":(\d)/, (_m, d) => `"die":${(Number(d) % 6) + 1}`));
    expect(verifyLog(tampered, (id) => engines.get(id)).ok).toBe(false);
  });

  it("keeps hidden events out of a seat's feed while the game runs", async () => {
    const gameId = await startedRace();
    const feed = async (token: string) => (await api.get(`/v1/games/${gameId}/events?after=0&limit=100`, token)).body.events as EventEnvelope[];
    const [a, b, spectator] = await Promise.all([feed(alice), feed(bob), feed(carol)]);
    expect(a.some((e) => e.type === 'DeckShuffled')).toBe(false);
    expect(a.filter((e) => e.type === 'CardDealt').map((e) => (e.data as { seat: string }).seat)).toEqual(['p1']);
    expect(b.filter((e) => e.type === 'CardDealt').map((e) => (e.data as { seat: string }).seat)).toEqual(['p2']);
    expect(spectator.some((e) => e.type === 'CardDealt' || e.type === 'DeckShuffled')).toBe(false);
    const after = await api.get(`/v1/games/${gameId}/events?after=2&limit=1`, alice);
    expect(after.body.events.map((e: EventEnvelope) => e.seq)).toEqual([3]);
    expect(after.body.next).toBe(3);
    expect((await api.get(`/v1/games/${gameId}/export`, alice)).body.code).toBe('game/not-ended');
  });
});

describe('resigning', () => {
  it('ends the game for the other seat, and the log still verifies', async () => {
    const gameId = await startedRace();
    const r = await api.post(`/v1/games/${gameId}/resign`, bob, { commandId: cid('resign') });
    expect(r.status).toBe(200);
    expect(r.body.events.map((e: EventEnvelope) => e.type)).toEqual(['Game.Resigned', 'Game.Ended']);
    const v = await api.get(`/v1/games/${gameId}`, alice);
    expect(v.body.summary).toMatchObject({ status: 'ended', outcome: { winners: ['p1'], reason: 'p2 resigned' } });
    const again = await api.post(`/v1/games/${gameId}/resign`, alice, { commandId: cid('resign') });
    expect([again.status, again.body.code]).toEqual([422, 'game/not-active']);
    const ex = await api.get(`/v1/games/${gameId}/export`, alice);
    expect(verifyLog(ex.body.events, (id) => engines.get(id)).ok).toBe(true);
  });
});

describe('cancelling', () => {
  it('the creator withdraws a game before it starts; others get 403, a started game 422, and the log verifies', async () => {
    const c = await api.post('/v1/games', alice, { engine: 'dice-race', options: { target: 15, seats: 3 }, seat: 'p1', commandId: cid('create') });
    const gameId = c.body.gameId as string;
    expect((await api.post(`/v1/games/${gameId}/join`, bob, { commandId: cid('join') })).status).toBe(200);
    const before = await count();
    const byBob = await api.post(`/v1/games/${gameId}/cancel`, bob, { commandId: cid('cancel') });
    expect([byBob.status, byBob.body.code]).toEqual([403, 'action/not-creator']);
    const bad = await api.post(`/v1/games/${gameId}/cancel`, alice, { commandId: cid('cancel'), why: 'bored' });
    expect(bad.status).toBe(400);
    expect(await count()).toBe(before);
    const r = await api.post(`/v1/games/${gameId}/cancel`, alice, { commandId: cid('cancel') });
    expect(r.status).toBe(200);
    expect(r.body.events.map((e: EventEnvelope) => e.type)).toEqual(['Game.Cancelled', 'Game.Ended']);
    const join = await api.post(`/v1/games/${gameId}/join`, carol, { commandId: cid('join') });
    expect(join.status).toBe(422);
    const ex = await api.get(`/v1/games/${gameId}/export`, bob);
    expect(verifyLog(ex.body.events, (id) => engines.get(id)).ok).toBe(true);
    const started = await startedRace();
    const late = await api.post(`/v1/games/${started}/cancel`, alice, { commandId: cid('cancel') });
    expect([late.status, late.body.code]).toEqual([422, 'game/not-open']);
  });
});

describe('time limits', () => {
  it('are set at creation; a claim before the deadline is 422 time/not-yet; a bad limit is 400', async () => {
    const bad = await api.post('/v1/games', alice, { engine: 'dice-race', timeLimitHours: 0, commandId: cid('create') });
    expect([bad.status, bad.body.code]).toEqual([400, 'http/invalid-request']);
    const c = await api.post('/v1/games', alice, { engine: 'dice-race', options: { target: 15 }, seat: 'p1', timeLimitHours: 72, commandId: cid('create') });
    expect(c.status).toBe(201);
    const gameId = c.body.gameId as string;
    expect((await api.post(`/v1/games/${gameId}/join`, bob, { commandId: cid('join') })).status).toBe(200);
    const v = await api.get(`/v1/games/${gameId}`, bob);
    expect(v.body.summary.timeLimitHours).toBe(72);
    expect(Date.parse(v.body.pending[0].deadline) - Date.parse(v.body.summary.updatedAt)).toBe(72 * 3_600_000);
    const early = await api.post(`/v1/games/${gameId}/claim-timeout`, bob, { commandId: cid('claim') });
    expect([early.status, early.body.code]).toEqual([422, 'time/not-yet']);
  });
});

describe('bad requests write nothing', () => {
  it('malformed JSON → 400 http/malformed-json', async () => {
    const gameId = await startedRace();
    const before = await count();
    const r = await api.call('POST', `/v1/games/${gameId}/commands`, { token: alice, raw: '{"commandId": "x", "command": {"type": "Roll"' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('http/malformed-json');
    expect(r.body.message).toMatch(/not valid JSON/);
    const c = await api.call('POST', '/v1/games', { token: alice, raw: 'engine=dice-race' });
    expect(c.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it('a missing or mistyped field → 400 naming the field', async () => {
    const gameId = await startedRace();
    const before = await count();
    const r = await api.post(`/v1/games/${gameId}/commands`, alice, { command: { type: 'Roll' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'http/invalid-request' });
    expect(r.body.message).toMatch(/commandId/);
    const v = await api.post(`/v1/games/${gameId}/commands`, alice, { commandId: cid(), command: { type: 'Roll' }, expectedVersion: 'seven' });
    expect(v.status).toBe(400);
    expect(v.body.message).toMatch(/expectedVersion/);
    const extra = await api.post(`/v1/games/${gameId}/commands`, alice, { commandId: cid(), command: { type: 'Roll' }, expectVersion: 3 });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toMatch(/expectVersion/);
    expect(await count()).toBe(before);
  });

  it('unknown engine → 400 engine/unknown', async () => {
    const before = await count();
    const r = await api.post('/v1/games', alice, { engine: 'chess', commandId: cid() });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('engine/unknown');
    expect(r.body.message).toMatch(/chess/);
    expect(await count()).toBe(before);
  });

  it('bad engine options → 400 with the option named', async () => {
    const before = await count();
    const r = await api.post('/v1/games', alice, { engine: 'dice-race', options: { target: 'many' }, commandId: cid() });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('game/bad-options');
    expect(r.body.message).toMatch(/target/);
    expect(await count()).toBe(before);
  });

  it('unknown command type → 400 command/malformed with the zod summary', async () => {
    const gameId = await startedRace();
    const before = await count();
    const r = await api.post(`/v1/games/${gameId}/commands`, alice, { commandId: cid(), command: { type: 'Teleport' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('command/malformed');
    expect(r.body.message).toMatch(/type/);
    const noType = await api.post(`/v1/games/${gameId}/commands`, alice, { commandId: cid(), command: { kind: 'Roll' } });
    expect(noType.status).toBe(400);
    expect(noType.body.message).toMatch(/command\.type/);
    expect(await count()).toBe(before);
  });

  it('oversize body → 413 http/body-too-large', async () => {
    const gameId = await startedRace();
    const before = await count();
    const big = { commandId: cid(), command: { type: 'Roll', pad: 'x'.repeat(70 * 1024) } };
    const r = await api.post(`/v1/games/${gameId}/commands`, alice, big);
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('http/body-too-large');
    const c = await api.post('/v1/games', alice, { engine: 'dice-race', options: { pad: 'y'.repeat(200 * 1024) }, commandId: cid() });
    expect(c.status).toBe(413);
    expect(await count()).toBe(before);
  });

  it('a rule violation → 422 with the rulebook section, and an unknown game → 404', async () => {
    const gameId = await startedRace();
    const before = await count();
    const r = await api.post(`/v1/games/${gameId}/commands`, bob, { commandId: cid(), command: { type: 'Roll' } });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ code: 'action/inactive-player', message: "It is p1's turn", rule: 'Dice Race: turns' });
    const missing = await api.post('/v1/games/no-such-game/commands', alice, { commandId: cid(), command: { type: 'Roll' } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('game/not-found');
    expect((await api.get('/v1/games/no-such-game', alice)).status).toBe(404);
    expect(await count()).toBe(before);
  });
});

describe('seats and tokens', () => {
  it('a seat cannot act for another: 403, nothing written', async () => {
    const gameId = await startedRace();
    const before = await count();
    const asP1 = await api.post(`/v1/games/${gameId}/commands`, bob, { commandId: cid(), command: { type: 'Roll' }, seat: 'p1' });
    expect(asP1.status).toBe(403);
    expect(asP1.body.code).toBe('action/not-your-seat');
    const stranger = await api.post(`/v1/games/${gameId}/commands`, carol, { commandId: cid(), command: { type: 'Roll' } });
    expect(stranger.status).toBe(403);
    expect(stranger.body.code).toBe('action/not-seated');
    const resign = await api.post(`/v1/games/${gameId}/resign`, carol, { commandId: cid() });
    expect(resign.status).toBe(403);
    const peek = await api.get(`/v1/games/${gameId}?seat=p1`, bob);
    expect(peek.status).toBe(403);
    expect(await count()).toBe(before);
  });

  it('missing, malformed, tampered, foreign and expired tokens → 401', async () => {
    const gameId = await startedRace();
    const before = await count();
    const body = { commandId: cid(), command: { type: 'Roll' } };
    const path = `/v1/games/${gameId}/commands`;
    const none = await api.post(path, undefined, body);
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('auth/missing-token');
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await api.post(path, 'not-a-jwt', body)).body.code).toBe('auth/invalid-token');
    const [h, , s] = alice.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ sub: 'bob', iat: 0, exp: 4_000_000_000 })).toString('base64url');
    expect((await api.post(path, `${h}.${forgedPayload}.${s}`, body)).status).toBe(401);
    const foreign = signLocalJwt('another-secret-entirely-0123456789', 'alice', { nowSeconds: Math.floor(Date.now() / 1000), ttlSeconds: 600 });
    expect((await api.post(path, foreign, body)).status).toBe(401);
    const expired = await api.post(path, rt.issueToken('alice', -60), body);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('auth/token-expired');
    expect((await api.get(`/v1/games/${gameId}`)).status).toBe(401);
    expect(await count()).toBe(before);
  });
});

describe('concurrency and idempotency over HTTP', () => {
  it('two commands on the same expectedVersion: one 200, one 409; the loser succeeds on retry', async () => {
    const gameId = await tallyGame();
    const v = (await api.get(`/v1/games/${gameId}`, alice)).body.summary.version as number;
    const aId = cid('a');
    const bId = cid('b');
    const [ra, rb] = await Promise.all([
      api.post(`/v1/games/${gameId}/commands`, alice, { commandId: aId, command: { type: 'Add', n: 2 }, expectedVersion: v }),
      api.post(`/v1/games/${gameId}/commands`, bob, { commandId: bId, command: { type: 'Add', n: 5 }, expectedVersion: v }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    const [loser, token, id, n] = ra.status === 409 ? [ra, alice, aId, 2] : [rb, bob, bId, 5];
    expect(loser.body.code).toBe('version/conflict');
    const now = (await api.get(`/v1/games/${gameId}`, token)).body.summary.version as number;
    expect(now).toBe(v + 2);
    const retry = await api.post(`/v1/games/${gameId}/commands`, token, { commandId: id, command: { type: 'Add', n }, expectedVersion: now });
    expect(retry.status).toBe(200);
    expect(retry.body.duplicate).toBe(false);
    const view = await api.get(`/v1/games/${gameId}`, alice);
    expect(view.body.view).toEqual({ total: 7 });
    expect(view.body.summary.version).toBe(v + 4);
  });

  it('the same commandId sent 5 times (at once) → one set of events', async () => {
    const gameId = await startedRace(1000);
    const before = (await api.get(`/v1/games/${gameId}/events?limit=1000`, alice)).body;
    const items = await count();
    const body = { commandId: cid('same'), command: { type: 'Roll' } };
    const rs = await Promise.all(Array.from({ length: 5 }, () => api.post(`/v1/games/${gameId}/commands`, alice, body)));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(rs.filter((r) => !r.body.duplicate)).toHaveLength(1);
    const versions = new Set(rs.map((r) => r.body.version));
    expect([...versions]).toEqual([before.version + 2]);
    const again = await api.post(`/v1/games/${gameId}/commands`, alice, body);
    expect(again.body).toMatchObject({ duplicate: true, version: before.version + 2 });
    const after = (await api.get(`/v1/games/${gameId}/events?limit=1000`, alice)).body;
    const added = (after.events as EventEnvelope[]).filter((e) => e.seq > before.version);
    expect(added.map((e) => e.type)).toEqual(['Game.CommandAccepted', 'Rolled']);
    expect(new Set(added.map((e) => e.commandId))).toEqual(new Set([body.commandId]));
    // The two events went into one new item (the append layout's HEAD#<seq>): exactly one item was added.
    expect(await count()).toBe(items + 1);
  });

  it('a repeated create returns the same game', async () => {
    const body = { engine: 'dice-race', seat: 'p1', commandId: cid('create-twice') };
    const first = await api.post('/v1/games', alice, body);
    const second = await api.post('/v1/games', alice, body);
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ gameId: first.body.gameId, duplicate: true, version: first.body.version });
  });
});
