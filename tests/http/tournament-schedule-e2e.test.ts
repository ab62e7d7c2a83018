import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { spearpoint } from '../../domain/spearpoint/index.js';
import { diceRace } from '../fixtures/dice-race.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { startLocalNotifications } from '../../functions/local/stream-poller.js';
import { cid, http, type Res } from './support.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 14 over HTTP on DynamoDB Local, beside tournament-e2e.test.ts: members come in by
 * invitation; a tournament with `startsAt` starts itself when the local clock (POST /local/clock)
 * passes that time, or is cancelled with its reason when fewer than two entered; and five players
 * run a single elimination of Spearpoint's Tiger Hunt to its winner, the top three seeds on byes
 * in round one and a drawn game (adjudicated) sending the higher seed through. And a casual game
 * (plain POST /v1/games, no club) created `rated` moves both players' ratings when it ends.
 */
const ENGINE = 'spearpoint-1943';
const OWNER = 'olga';
const FIVE = ['p1', 'p2', 'p3', 'p4', 'p5'] as const;

let rt: LocalRuntime;
let api: ReturnType<typeof http>;
const tokens = new Map<string, string>();
const tok = (p: string) => tokens.get(p)!;
let clubId = '';

beforeAll(async () => {
  rt = await startLocalRuntime({
    memory: true,
    engines: createRegistry([spearpoint, diceRace]),
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `tour-sched-${Date.now().toString(36)}`,
    extensions: [
      async (ctx) => startLocalNotifications(ctx, { pollIntervalMs: 50, retry: { mode: 'inline', attempts: 2, baseDelayMs: 20, maxDelayMs: 100 }, env: {} }),
    ],
  });
  api = http(rt.url);
  for (const p of [OWNER, 'dirk', 'zed', ...FIVE]) tokens.set(p, rt.issueToken(p));
}, 60_000);

afterAll(async () => {
  await rt?.stop();
});

const ok = (r: Res, status = 200) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};

const tournamentWhen = (id: string, done: (t: any) => boolean, what: string): Promise<any> =>
  waitFor(`tournament ${id}: ${what}`, async () => {
    const t = ok(await api.get(`/v1/tournaments/${id}`, tok(OWNER)));
    return done(t) ? t : undefined;
  });

const tigerHunt = (name: string, extra: Record<string, unknown>) =>
  api.post('/v1/tournaments', tok(OWNER), {
    club: clubId,
    name,
    engine: ENGINE,
    options: { situation: 'tiger-hunt' },
    timeControl: { kind: 'per-move', days: 3 },
    rated: true,
    commandId: cid('t'),
    ...extra,
  });

describe('invitations, a scheduled start and a single elimination, over HTTP', () => {
  it('invitations: a director invites members, only the owner invites directors, the invited accept', async () => {
    clubId = ok(await api.post('/v1/clubs', tok(OWNER), { name: 'Bracket Club', description: 'knock-outs', commandId: cid('club') }), 201).clubId;
    // Without an invitation there is nothing to accept.
    expect((await api.post(`/v1/clubs/${clubId}/accept`, tok('dirk'), {})).body.code).toBe('club/no-invitation');
    ok(await api.post(`/v1/clubs/${clubId}/invitations`, tok(OWNER), { player: 'dirk', role: 'director' }));
    ok(await api.post(`/v1/clubs/${clubId}/accept`, tok('dirk'), {}));
    // A member may not invite; a director invites members but not directors.
    for (const p of FIVE) ok(await api.post(`/v1/clubs/${clubId}/invitations`, tok('dirk'), { player: p }));
    expect((await api.post(`/v1/clubs/${clubId}/invitations`, tok('dirk'), { player: 'zed', role: 'director' })).status).toBe(403);
    for (const p of FIVE) ok(await api.post(`/v1/clubs/${clubId}/accept`, tok(p), {}));
    expect((await api.post(`/v1/clubs/${clubId}/invitations`, tok('p1'), { player: 'zed' })).status).toBe(403);
    expect((await api.post(`/v1/clubs/${clubId}/accept`, tok('p1'), {})).body.code).toBe('club/already-member');
    const members = ok(await api.get(`/v1/clubs/${clubId}/members`, tok('p1'))).members;
    expect(members).toEqual(expect.arrayContaining([{ player: 'dirk', role: 'director' }, ...FIVE.map((p) => ({ player: p, role: 'member' }))]));
    expect(members).toHaveLength(7);
  });

  it('startsAt: refused in the past; at its time it starts itself, or is cancelled with fewer than two players', async () => {
    const now = Date.now();
    const past = await tigerHunt('Yesterday', { format: 'round-robin', startsAt: new Date(now - 3_600_000).toISOString() });
    expect(past.status).toBe(422);
    expect(past.body.code).toBe('tournament/starts-in-past');
    const at = new Date(now + 2 * 3_600_000).toISOString();
    const full = ok(await tigerHunt('Evening Cup', { format: 'round-robin', startsAt: at }), 201);
    const empty = ok(await tigerHunt('Lonely Cup', { format: 'round-robin', startsAt: at }), 201);
    expect(full).toMatchObject({ status: 'open', startsAt: at });
    for (const p of ['p1', 'p2']) ok(await api.post(`/v1/tournaments/${full.tournamentId}/join`, tok(p), {}));
    ok(await api.post(`/v1/tournaments/${empty.tournamentId}/join`, tok('p3'), {}));
    // An hour early: nothing happens.
    ok(await api.post('/local/clock', undefined, { advanceHours: 1 }));
    expect(ok(await api.get(`/v1/tournaments/${full.tournamentId}`, tok(OWNER))).status).toBe('open');
    // Past its time: the first starts (round one paired, its game made), the second is called off with its reason.
    ok(await api.post('/local/clock', undefined, { advanceHours: 2 }));
    const started = await tournamentWhen(full.tournamentId, (t) => t.rounds[0]?.pairings[0]?.gameId !== undefined, 'the scheduled start');
    expect(started.status).toBe('running');
    expect(started.rounds).toHaveLength(1);
    const cancelled = ok(await api.get(`/v1/tournaments/${empty.tournamentId}`, tok(OWNER)));
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelled: 'too few players at the scheduled start (1; a tournament needs 2)', standings: [] });
    expect((await api.post(`/v1/tournaments/${empty.tournamentId}/join`, tok('p4'), {})).body.code).toBe('tournament/cancelled');
    // Another sweep changes nothing (the start is idempotent).
    ok(await api.post('/local/clock', undefined, { advanceHours: 1 }));
    const again = ok(await api.get(`/v1/tournaments/${full.tournamentId}`, tok(OWNER)));
    expect(again.rounds).toHaveLength(1);
    expect(ok(await api.get(`/v1/tournaments?club=${clubId}&status=cancelled`, tok(OWNER))).tournaments.map((t: any) => t.tournamentId)).toEqual([
      empty.tournamentId,
    ]);
    // The running one is not this test's business any more: the director calls it a draw and it finishes.
    ok(
      await api.post(`/v1/tournaments/${full.tournamentId}/adjudicate`, tok(OWNER), {
        pairingId: started.rounds[0].pairings[0].pairingId,
        winner: null,
        reason: 'test over',
      }),
    );
  });

  it('a director moves the start: the old time passes without a start, the new one starts it; only directors, only ahead, only while open', async () => {
    const now = Date.parse(ok(await api.post('/local/clock', undefined, { advanceHours: 0 })).now);
    const first = new Date(now + 3_600_000).toISOString();
    const moved = new Date(now + 5 * 3_600_000).toISOString();
    const t = ok(await tigerHunt('Moved Cup', { format: 'round-robin', startsAt: first }), 201);
    const id = t.tournamentId;
    for (const p of ['p4', 'p5']) ok(await api.post(`/v1/tournaments/${id}/join`, tok(p), {}));
    expect((await api.post(`/v1/tournaments/${id}/schedule`, tok('p4'), { startsAt: moved })).status).toBe(403);
    const past = await api.post(`/v1/tournaments/${id}/schedule`, tok('dirk'), { startsAt: new Date(now - 60_000).toISOString() });
    expect([past.status, past.body.code]).toEqual([422, 'tournament/starts-in-past']);
    expect(ok(await api.post(`/v1/tournaments/${id}/schedule`, tok('dirk'), { startsAt: moved })).startsAt).toBe(moved);
    for (const bad of ['__proto__', 'constructor', 'toString']) {
      const r = await api.post(`/v1/tournaments/${bad}/schedule`, tok('dirk'), { startsAt: moved });
      expect([bad, r.status, r.body.code]).toEqual([bad, 404, 'tournament/not-found']);
    }
    expect((await api.post(`/v1/tournaments/${id}/schedule`, tok('dirk'), { startsAt: 'next tuesday' })).status).toBe(400);
    const line = ok(await api.get(`/v1/tournaments?club=${clubId}&status=open`, tok(OWNER))).tournaments.find((x: any) => x.tournamentId === id);
    expect(line.startsAt).toBe(moved);
    // Past the first time: still open.
    ok(await api.post('/local/clock', undefined, { advanceHours: 2 }));
    expect(ok(await api.get(`/v1/tournaments/${id}`, tok(OWNER))).status).toBe('open');
    // Past the moved time: started.
    ok(await api.post('/local/clock', undefined, { advanceHours: 4 }));
    const started = await tournamentWhen(id, (x) => x.rounds[0]?.pairings[0]?.gameId !== undefined, 'the moved start');
    expect(started.status).toBe('running');
    expect((await api.post(`/v1/tournaments/${id}/schedule`, tok('dirk'), { startsAt: null })).body.code).toBe('tournament/not-open');
    ok(
      await api.post(`/v1/tournaments/${id}/adjudicate`, tok(OWNER), { pairingId: started.rounds[0].pairings[0].pairingId, winner: null, reason: 'test over' }),
    );
  });

  it('single elimination: five players, byes to the top three seeds, a draw sends the higher seed through, played to a winner', async () => {
    const t = ok(await tigerHunt('Knock-out', { format: 'single-elimination' }), 201);
    const id = t.tournamentId;
    // Everyone is rated 1500 (new), so the seeds follow the order of joining.
    for (const p of FIVE) ok(await api.post(`/v1/tournaments/${id}/join`, tok(p), {}));
    ok(await api.post(`/v1/tournaments/${id}/start`, tok('dirk'), {}));
    const ready = (n: number) => (x: any) =>
      x.status === 'finished' || (x.rounds.length === n && x.rounds[n - 1].pairings.every((p: any) => p.gameId !== undefined));

    // Round one: seeds 4 and 5 play, 1 to 3 have byes. p5 wins (the loser resigns).
    let r = await tournamentWhen(id, ready(1), 'round one');
    expect(r.players.map((p: any) => [p.player, p.seed])).toEqual(FIVE.map((p, i) => [p, i + 1]));
    expect(r.rounds[0].byes.map((b: any) => b.player).sort()).toEqual(['p1', 'p2', 'p3']);
    expect(r.rounds[0].pairings.map((p: any) => [...p.seats].sort())).toEqual([['p4', 'p5']]);
    ok(await api.post(`/v1/games/${r.rounds[0].pairings[0].gameId}/resign`, tok('p4'), { commandId: cid('resign') }));

    // Semi-finals: 1 v 5 (p5 wins) and 2 v 3 (drawn by adjudication: p2, the higher seed, goes through).
    r = await tournamentWhen(id, ready(2), 'the semi-finals');
    const semis = r.rounds[1].pairings;
    expect(semis.map((p: any) => [...p.seats].sort())).toEqual([
      ['p1', 'p5'],
      ['p2', 'p3'],
    ]);
    ok(await api.post(`/v1/games/${semis[0].gameId}/resign`, tok('p1'), { commandId: cid('resign') }));
    ok(await api.post(`/v1/tournaments/${id}/adjudicate`, tok('dirk'), { pairingId: semis[1].pairingId, winner: null, reason: 'agreed draw' }));

    // The final: p2 v p5; p2 wins.
    r = await tournamentWhen(id, ready(3), 'the final');
    const final = r.rounds[2].pairings;
    expect(final.map((p: any) => [...p.seats].sort())).toEqual([['p2', 'p5']]);
    ok(await api.post(`/v1/games/${final[0].gameId}/resign`, tok('p5'), { commandId: cid('resign') }));

    const done = await tournamentWhen(id, (x) => x.status === 'finished', 'the end');
    expect(done.standings.map((s: any) => [s.player, s.rank])).toEqual([
      ['p2', 1],
      ['p5', 2],
      ['p1', 3],
      ['p3', 3],
      ['p4', 5],
    ]);
  });
});

describe('a rated casual game, over HTTP', () => {
  it('rated on POST /v1/games: two-player games only; its end moves both ratings; an unrated game moves none, even when its create is repeated with rated', async () => {
    const three = await api.post('/v1/games', tok('zed'), {
      engine: 'dice-race',
      options: { target: 5, seats: 3 },
      seat: 'p1',
      rated: true,
      commandId: cid('g3'),
    });
    expect([three.status, three.body.code]).toEqual([422, 'game/rated-needs-two']);
    // A tournament game's commandId is the server's: nobody makes their next tournament game beforehand.
    const early = { engine: 'dice-race', options: { target: 5 }, seat: 'p1', commandId: 'tournament:anything/r1/b1' };
    for (const r of [await api.post('/v1/games', tok('zed'), early), await api.post(`/v1/clubs/${clubId}/games`, tok('p1'), early)])
      expect([r.status, r.body.code]).toEqual([400, 'game/reserved-command-id']);
    const play = async (rated: boolean, loser: string) => {
      const create = { engine: 'dice-race', options: { target: 5 }, seat: 'p1', reserve: { p2: 'dirk' }, rated, commandId: cid('g') };
      const g = ok(await api.post('/v1/games', tok('zed'), create), 201);
      // Whoever is asked to join sees whether the result will count.
      expect(ok(await api.get(`/v1/games/${g.gameId}`, tok('dirk'))).summary.rated).toBe(rated ? true : undefined);
      ok(await api.post(`/v1/games/${g.gameId}/join`, tok('dirk'), { seat: 'p2', commandId: cid('j') }));
      // The same create sent again, now asking for a rating, answers with the game as it was made.
      if (!rated) expect(ok(await api.post('/v1/games', tok('zed'), { ...create, rated: true }))).toMatchObject({ gameId: g.gameId, duplicate: true });
      ok(await api.post(`/v1/games/${g.gameId}/resign`, tok(loser), { commandId: cid('r') }));
      return g.gameId as string;
    };
    const casual = await play(false, 'zed');
    const rated = await play(true, 'dirk');
    const board: any = await waitFor('both players on the dice-race leaderboard', async () => {
      const b = ok(await api.get('/v1/ratings?engine=dice-race', tok('zed')));
      return b.entries.length === 2 ? b : undefined;
    });
    const entry = (p: string) => board.entries.find((e: any) => e.player === p);
    expect(entry('zed')).toMatchObject({ games: 1, provisional: true });
    expect(entry('zed').rating).toBeGreaterThan(1500);
    expect(entry('dirk').rating).toBeLessThan(1500);
    const page = ok(await api.get('/v1/players/zed', tok('dirk')));
    expect(page.ratings.map((r: any) => [r.engine, r.history.map((h: any) => h.gameId)])).toEqual([['dice-race', [rated]]]);
    expect(casual).not.toBe(rated);
  });

  it('an open rated game says so in the lobby', async () => {
    const g = ok(
      await api.post('/v1/games', tok('zed'), { engine: 'dice-race', options: { target: 5 }, seat: 'p1', rated: true, commandId: cid('open') }),
      201,
    );
    const listed: any = await waitFor('the rated game in the lobby', async () =>
      ok(await api.get('/v1/lobby?limit=100', tok('dirk'))).games.find((x: any) => x.gameId === g.gameId),
    );
    expect(listed.rated).toBe(true);
    ok(await api.post(`/v1/games/${g.gameId}/cancel`, tok('zed'), { commandId: cid('cancel') }));
  });
});
