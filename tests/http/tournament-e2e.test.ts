import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { registry } from '../../domain/registry.js';
import { BUILT_IN_CATALOG } from '../../domain/spearpoint/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { startLocalNotifications, type LocalNotifications } from '../../functions/local/stream-poller.js';
import { cid, http, type Res } from './support.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 14's "done when", over HTTP on DynamoDB Local with the stream poller of `npm start`: a
 * club with six playing members (and its owner, who directs) runs a round robin and then a
 * 3-round Swiss of Spearpoint's Tiger Hunt. Games are created by the stream reactor, played
 * from their legal commands and ended by resignation, or, once, by a time-out (the local clock
 * moved past the deadline). Standings and tiebreaks are checked against tables worked out by
 * hand below; each next round pairs itself; ratings move; the director hears of the time-out
 * and the players of their pairings (webhooks; the same notices go by mail).
 */
const PLAYERS = ['ann', 'ben', 'cat', 'dan', 'eve', 'fay'] as const;
type P = (typeof PLAYERS)[number];
const DIRECTOR = 'dora';
const ENGINE = 'spearpoint-1943';

let rt: LocalRuntime;
let notif: LocalNotifications;
let api: ReturnType<typeof http>;
let receiver: Server;
let hookBase = '';
const hooks: { path: string; body: any }[] = [];
const tokens = new Map<string, string>();
const tok = (p: string) => tokens.get(p)!;
let clubId = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hooks.push({ path: req.url ?? '/', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', () => ok()));
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  rt = await startLocalRuntime({
    memory: true,
    engines: registry,
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `tour-e2e-${Date.now().toString(36)}`,
    extensions: [
      async (ctx) =>
        (notif = await startLocalNotifications(ctx, { pollIntervalMs: 50, retry: { mode: 'inline', attempts: 2, baseDelayMs: 20, maxDelayMs: 100 }, env: {} })),
    ],
  });
  api = http(rt.url);
  tokens.set('zed', rt.issueToken('zed'));
  for (const p of [DIRECTOR, ...PLAYERS]) tokens.set(p, rt.issueToken(p));
  // The director and one player listen by webhook (the others' notices are decided the same way and go nowhere).
  for (const p of [DIRECTOR, 'ann']) {
    const s = await api.call('PUT', '/v1/me/settings', {
      token: tok(p),
      body: { webhooks: [{ url: `${hookBase}/${p}`, format: 'json' }] },
    });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await rt?.stop();
  await new Promise<void>((ok) => receiver?.close(() => ok()));
});

const ok = (r: Res, status = 200) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};

/** Waits until the tournament satisfies `done` (the stream poller creates games, records results, pairs rounds). */
const tournamentWhen = (id: string, done: (t: any) => boolean, what: string): Promise<any> =>
  waitFor(`tournament ${id}: ${what}`, async () => {
    const t = ok(await api.get(`/v1/tournaments/${id}`, tok(DIRECTOR)));
    return done(t) ? t : undefined;
  });

const current = (t: any) => t.rounds[t.rounds.length - 1];
const roundReady = (t: any) => t.status === 'finished' || current(t)?.pairings.every((p: any) => p.gameId !== undefined || p.result !== undefined);

/** A few legal commands for the seats the game waits for (`first`'s seat first), as a player would choose them. */
async function playSome(gameId: string, first: string, steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) {
    const v = ok(await api.get(`/v1/games/${gameId}`, tok(first)));
    const pending = (v.pending as { seat: string; player: string }[]).map((p) => p.player);
    const who = pending.includes(first) ? first : pending[0];
    if (who === undefined || v.summary.status !== 'active') return;
    const mine = who === first ? v : ok(await api.get(`/v1/games/${gameId}`, tok(who)));
    const legal = mine.legalCommands as unknown[];
    expect(legal.length, `${who} is pending in ${gameId} with nothing to do`).toBeGreaterThan(0);
    ok(await api.post(`/v1/games/${gameId}/commands`, tok(who), { commandId: cid('move'), command: legal[0], expectedVersion: v.summary.version }));
  }
}

/** The loser ends the game by resigning (after the winner's first legal command). */
async function resign(gameId: string, loser: string): Promise<void> {
  ok(await api.post(`/v1/games/${gameId}/resign`, tok(loser), { commandId: cid('resign') }));
}

/** Runs every round: `winnerOf` says who wins each pairing; `timeOutIn` names one pairing the loser loses on time. */
async function runTournament(id: string, winnerOf: (a: string, b: string, t: any) => string, timeOut?: { round: number; loser: string }): Promise<any> {
  for (;;) {
    const t = await tournamentWhen(id, roundReady, 'the round was paired and its games made');
    if (process.env['TOUR_E2E_TIMING']) console.log(`${new Date().toISOString()} ${t.name} round ${t.rounds.length} ready`);
    if (t.status === 'finished') return t;
    const round = current(t);
    let late: { gameId: string; winner: string } | undefined;
    const games: Promise<void>[] = [];
    for (const p of round.pairings) {
      if (p.result) continue;
      const [a, b] = p.seats as [string, string];
      const winner = winnerOf(a, b, t);
      const loser = winner === a ? b : a;
      if (timeOut && timeOut.round === round.round && timeOut.loser === loser) late = { gameId: p.gameId, winner };
      else games.push(playSome(p.gameId, winner, 1).then(() => resign(p.gameId, loser)));
    }
    await Promise.all(games);
    if (late) {
      // Only the late game is still running: the winner moves, the loser never does, and the clock passes the deadline.
      await playSome(late.gameId, late.winner, 1);
      ok(await api.post('/local/clock', undefined, { advanceHours: 24 * 4 }));
      const g = ok(await api.get(`/v1/games/${late.gameId}`, tok(late.winner)));
      expect(g.summary.status).toBe('ended');
    }
    if (process.env['TOUR_E2E_TIMING']) console.log(`${new Date().toISOString()} played`);
    await tournamentWhen(id, (x) => x.status === 'finished' || x.rounds.length > round.round, `round ${round.round} finished and the next paired`);
    if (process.env['TOUR_E2E_TIMING']) console.log(`${new Date().toISOString()} next paired`);
  }
}

describe('a club runs a round robin and a Swiss of Spearpoint Tiger Hunt', () => {
  it('the club: created with a join code, six members join, settings and the club card catalog', async () => {
    const club = ok(
      await api.post('/v1/clubs', tok(DIRECTOR), { name: 'Kursk PBW', description: 'Tiger Hunt every week', joinCode: 'kursk-1943', commandId: cid('club') }),
      201,
    );
    clubId = club.clubId;
    expect(club.members).toEqual([{ player: DIRECTOR, role: 'owner' }]);
    for (const p of PLAYERS) ok(await api.post(`/v1/clubs/${clubId}/join`, tok(p), { joinCode: 'kursk-1943' }));
    expect((await api.post(`/v1/clubs/${clubId}/join`, tok('zed'), { joinCode: 'wrong-code' })).body.code).toBe('club/bad-join-code');
    const members = ok(await api.get(`/v1/clubs/${clubId}/members`, tok('ann')));
    expect(members.members).toHaveLength(7);
    // Settings: a member may not, the owner may.
    expect((await api.call('PUT', `/v1/clubs/${clubId}/settings`, { token: tok('ann'), body: { settings: { vacationDaysPerYear: 99 } } })).status).toBe(403);
    const set = ok(
      await api.call('PUT', `/v1/clubs/${clubId}/settings`, {
        token: tok(DIRECTOR),
        body: { settings: { defaultTimeControl: { kind: 'per-move', days: 3 }, vacationDaysPerYear: 21 } },
      }),
    );
    expect(set.settings).toEqual({ defaultTimeControl: { kind: 'per-move', days: 3 }, vacationDaysPerYear: 21 });
    // The club's own catalog, stored once; a broken one is refused.
    const bad = await api.call('PUT', `/v1/clubs/${clubId}/engine-data/${ENGINE}/broken`, {
      token: tok(DIRECTOR),
      body: { data: { catalog: { units: 'none' } } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('club/bad-engine-data');
    const stored = ok(
      await api.call('PUT', `/v1/clubs/${clubId}/engine-data/${ENGINE}/club-cards`, { token: tok(DIRECTOR), body: { data: { catalog: BUILT_IN_CATALOG } } }),
    );
    expect(stored.engineData).toEqual([{ engine: ENGINE, name: 'club-cards', hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    // A member's game in the club takes the catalog by name and the club's clock.
    const g = ok(
      await api.post(`/v1/clubs/${clubId}/games`, tok('ann'), {
        engine: ENGINE,
        options: { situation: 'tiger-hunt' },
        engineData: 'club-cards',
        seat: 'us',
        commandId: cid('g'),
      }),
      201,
    );
    expect(g.clubId).toBe(clubId);
    const created = ok(await api.get(`/v1/games/${g.gameId}/events?after=0`, tok('ann'))).events[0];
    expect(created.data.options.catalog).toEqual(BUILT_IN_CATALOG);
    expect(created.data.timeControl).toEqual({ kind: 'per-move', days: 3 });
    expect(ok(await api.get(`/v1/clubs/${clubId}/games`, tok('ben'))).games.map((x: any) => x.gameId)).toEqual([g.gameId]);
    ok(await api.post(`/v1/games/${g.gameId}/cancel`, tok('ann'), { commandId: cid('cancel') }));
  });

  let rrId = '';
  it('round robin: six players, five rounds pairing themselves, a time-out forfeits and the director is told', async () => {
    const t = ok(
      await api.post('/v1/tournaments', tok(DIRECTOR), {
        club: clubId,
        name: 'Tiger Hunt Round Robin',
        engine: ENGINE,
        options: { situation: 'tiger-hunt' },
        format: 'round-robin',
        timeControl: { kind: 'per-move', days: 3 },
        rated: true,
        maxPlayers: 6,
        commandId: cid('rr'),
      }),
      201,
    );
    rrId = t.tournamentId;
    expect(t).toMatchObject({ clubId, status: 'open', standings: [] });
    expect((await api.post(`/v1/tournaments/${rrId}/join`, tok('zed'), {})).status).toBe(403);
    for (const p of PLAYERS) ok(await api.post(`/v1/tournaments/${rrId}/join`, tok(p), {}));
    expect((await api.post(`/v1/tournaments/${rrId}/start`, tok('ann'), {})).status).toBe(403);
    ok(await api.post(`/v1/tournaments/${rrId}/start`, tok(DIRECTOR), {}));

    // Who beats whom, chosen so three players tie on 3 points and three on 2.
    const beats: Record<P, P[]> = {
      ann: ['ben', 'cat', 'dan'],
      ben: ['cat', 'dan', 'eve'],
      cat: ['dan', 'eve', 'fay'],
      dan: ['eve', 'fay'],
      eve: ['ann', 'fay'],
      fay: ['ann', 'ben'],
    };
    const winnerOf = (a: string, b: string) => (beats[a as P].includes(b as P) ? a : b);
    // ann's loss to fay in the first round robin round that pairs them is lost on time instead.
    const first = ok(await api.get(`/v1/tournaments/${rrId}`, tok(DIRECTOR)));
    expect(first.rounds).toHaveLength(1);
    const annFayRound = await roundOf(rrId, 'ann', 'fay');
    const done = await runTournament(rrId, winnerOf, { round: annFayRound, loser: 'ann' });

    expect(done.status).toBe('finished');
    expect(done.rounds).toHaveLength(5);
    // Every pair met exactly once; every pairing carries its game.
    const met = new Set<string>();
    for (const r of done.rounds)
      for (const p of r.pairings) {
        expect(p.gameId).toEqual(expect.any(String));
        met.add([...p.seats].sort().join('-'));
      }
    expect(met.size).toBe(15);
    const late = done.rounds.flatMap((r: any) => r.pairings).find((p: any) => [...p.seats].sort().join('-') === 'ann-fay');
    expect(late.result).toMatchObject({ winner: 'fay', how: 'forfeit', reason: expect.stringMatching(/^time-out/) });

    // Worked by hand: points; head-to-head among those tied on points; Sonneborn-Berger.
    // 3 points: ann (beat ben, cat: h2h 2; SB 3+3+2 = 8), ben (beat cat: h2h 1; SB 3+2+2 = 7), cat (h2h 0; SB 2+2+2 = 6).
    // 2 points: dan (beat eve, fay: h2h 2; SB 2+2 = 4), eve (beat fay: h2h 1; SB 3+2 = 5), fay (h2h 0; SB 3+3 = 6).
    expect(done.standings.map((s: any) => [s.rank, s.player, s.points, s.tiebreaks.headToHead, s.tiebreaks.sonnebornBerger])).toEqual([
      [1, 'ann', 3, 2, 8],
      [2, 'ben', 3, 1, 7],
      [3, 'cat', 3, 0, 6],
      [4, 'dan', 2, 2, 4],
      [5, 'eve', 2, 1, 5],
      [6, 'fay', 2, 0, 6],
    ]);

    await notif.settle();
    // The director heard of the time-out; each player heard of each pairing with opponent and side.
    const toDirector = hooks.filter((h) => h.path === `/${DIRECTOR}` && h.body.type === 'tournament.notice');
    expect(toDirector.map((h) => h.body.tournament.about)).toContain('time-out');
    expect(toDirector.find((h) => h.body.tournament.about === 'time-out')!.body.text).toContain('ann ran out of time against fay');
    const toAnn = hooks.filter((h) => h.path === '/ann' && h.body.type === 'tournament.notice' && h.body.tournament.tournamentId === rrId);
    expect(toAnn).toHaveLength(5);
    expect(toAnn[0]!.body.text).toMatch(/you play (United States|Germany) against \w+ \((United States|Germany)\) in game/);
    expect(toAnn[0]!.body.opponents).toHaveLength(1);

    // Ratings moved: everyone has five rated games, ann's rating is above fay's.
    const board = ok(await api.get(`/v1/ratings?engine=${ENGINE}`, tok('ann')));
    expect(board.entries).toHaveLength(6);
    for (const e of board.entries) {
      expect(e.games).toBe(5);
      expect(e.rating).not.toBe(1500);
      expect(e.deviation).toBeLessThan(350);
    }
    const ann = ok(await api.get('/v1/players/ann', tok('ben')));
    expect(ann.ratings[0]).toMatchObject({ engine: ENGINE, player: 'ann', games: 5 });
    expect(ann.ratings[0].history).toHaveLength(5);
    const listed = ok(await api.get(`/v1/tournaments?club=${clubId}&status=finished`, tok('ann')));
    expect(listed.tournaments.map((x: any) => x.tournamentId)).toEqual([rrId]);
  }, 240_000);

  it('Swiss, 3 rounds: seeded by the ratings the round robin left, score groups pair themselves, no rematch', async () => {
    const t = ok(
      await api.post('/v1/tournaments', tok(DIRECTOR), {
        club: clubId,
        name: 'Tiger Hunt Swiss',
        engine: ENGINE,
        options: { situation: 'tiger-hunt' },
        format: 'swiss',
        rounds: 3,
        rated: true,
        commandId: cid('swiss'),
      }),
      201,
    );
    // No clock named: the club's default.
    expect(t.timeControl).toEqual({ kind: 'per-move', days: 3 });
    for (const p of PLAYERS) ok(await api.post(`/v1/tournaments/${t.tournamentId}/join`, tok(p), {}));
    const started = ok(await api.post(`/v1/tournaments/${t.tournamentId}/start`, tok(DIRECTOR), {}));
    // Seeds follow the ratings (entry ratings are read from the leaderboard, not sent by players).
    const board = ok(await api.get(`/v1/ratings?engine=${ENGINE}`, tok('ann')));
    const byRating = board.entries.map((e: any) => e.player);
    const seeds: string[] = [...started.players].sort((x: any, y: any) => x.seed - y.seed).map((x: any) => x.player);
    expect(seeds).toEqual(byRating);
    const seedOf = (p: string) => seeds.indexOf(p) + 1;
    // The higher seed wins every game.
    const done = await runTournament(t.tournamentId, (a, b) => (seedOf(a) < seedOf(b) ? a : b));
    expect(done.status).toBe('finished');
    const pairs = done.rounds.map((r: any) => r.pairings.map((p: any) => p.seats.map(seedOf).sort().join('v')).sort());
    // Worked by hand (seeds s1..s6; the higher seed wins). Round 1, one score group: top half against bottom half.
    // Round 2: 1 point {s1, s2, s3}: s1 v s2, and s3 floats down. s3 played side 0 and is owed side 1, as is s5 (s6 it
    // met already), so s3 meets s4, owed side 0; then s5 v s6.
    // Round 3: 2 points: s1 v s3. s2 and s5 (1 point) met in round one, so both float into the 0-point group, which
    // pairs itself without a rematch: s2 v s6, s4 v s5.
    expect(pairs).toEqual([
      ['1v4', '2v5', '3v6'],
      ['1v2', '3v4', '5v6'],
      ['1v3', '2v6', '4v5'],
    ]);
    // Points: s1 3 (beat 4, 2, 3); s2 2 (beat 5, 6); s3 2 (beat 6, 4); s4 1 (beat 5); s5 1 (beat 6); s6 0.
    // Buchholz (opponents' final points): s1 1+2+2 = 5; s2 1+3+0 = 4; s3 0+1+3 = 4; s4 3+2+1 = 6; s5 2+0+1 = 3; s6 2+1+2 = 5.
    // Median Buchholz (without the best and the worst): s1 2, s2 1, s3 1, s4 2, s5 1, s6 2.
    // s2 and s3 are equal on everything: they share second place, listed by seed.
    expect(done.standings.map((x: any) => [x.rank, seedOf(x.player), x.points, x.tiebreaks.buchholz, x.tiebreaks.medianBuchholz])).toEqual([
      [1, 1, 3, 5, 2],
      [2, 2, 2, 4, 1],
      [2, 3, 2, 4, 1],
      [4, 4, 1, 6, 2],
      [5, 5, 1, 3, 1],
      [6, 6, 0, 5, 2],
    ]);
    const after = ok(await api.get(`/v1/ratings?engine=${ENGINE}`, tok('ann')));
    for (const e of after.entries) expect(e.games).toBe(8);
  }, 240_000);
});

/** The round in which the round robin pairs these two (Berger tables are fixed by the seeds). */
async function roundOf(id: string, a: string, b: string): Promise<number> {
  const t = ok(await api.get(`/v1/tournaments/${id}`, tok(DIRECTOR)));
  const seeds = [...t.players].sort((x: any, y: any) => x.seed - y.seed).map((x: any) => x.player as string);
  const { roundRobinSchedule } = await import('../../domain/tournament/round-robin.js');
  const schedule = roundRobinSchedule(seeds, 1);
  return schedule.findIndex((r) => r.pairs.some((p) => p.seats.includes(a) && p.seats.includes(b))) + 1;
}
