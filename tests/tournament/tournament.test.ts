import { describe, expect, it } from 'vitest';
import { tournamentStandings } from '../../domain/tournament/scoring.js';
import { TOURNAMENT_ERRORS as E, gamesWanted, type TournamentEvent, type TournamentState } from '../../domain/tournament/tournament.js';
import { SYSTEM, bindAll, created, director, expectEvents, expectRefused, given, joined, member, openPairings, run } from './given.js';
import { seeded } from '../support/seeded.js';

const rr = { kind: 'round-robin', cycles: 1 } as const;
const fourJoined = (format: Parameters<typeof created>[0] = rr) =>
  given(created(format), joined('A', 1800), joined('B', 1700), joined('C', 1600), joined('D', 1500));

/** Records a result for a pairing's bound game. */
const result = (s: TournamentState, pairingId: string, winner: string | null) => run(s, { type: 'RecordResult', gameId: `g:${pairingId}`, winner }, SYSTEM);

describe('creating and entering', () => {
  it('a club director creates a tournament', () => {
    expectEvents(
      given(),
      { type: 'CreateTournament', tournamentId: 't1', clubId: 'c1', name: 'Autumn Cup', engine: 'dice-race', format: { kind: 'swiss', rounds: 5 } },
      director(),
      [
        {
          type: 'TournamentCreated',
          tournamentId: 't1',
          clubId: 'c1',
          name: 'Autumn Cup',
          engine: 'dice-race',
          format: { kind: 'swiss', rounds: 5 },
          rated: true,
          createdBy: 'dora',
        },
      ],
    );
  });

  it('game options (a club catalog by name) and a time limit pass through to every game wanted', () => {
    const cmd = {
      type: 'CreateTournament',
      tournamentId: 't1',
      clubId: 'c1',
      name: 'Spearpoint Open',
      engine: 'spearpoint-1943',
      format: rr,
      rated: false,
      gameOptions: { catalog: 'club-2025', situation: 'standard' },
      timeLimitHours: 72,
    };
    let s = run(given(), cmd, director()).state;
    for (const p of ['A', 'B']) s = run(s, { type: 'JoinTournament', player: p, rating: 1500 }, member(p)).state;
    const wanted = run(s, { type: 'StartTournament' }, director()).events.find((e) => e.type === 'GameWanted');
    expect(wanted).toEqual({
      type: 'GameWanted',
      pairingId: 't1/r1/b1',
      round: 1,
      engine: 'spearpoint-1943',
      seats: ['A', 'B'],
      rated: false,
      options: { catalog: 'club-2025', situation: 'standard' },
      timeLimitHours: 72,
    });
  });

  it('a plain member may not create one, and an id is used once', () => {
    const cmd = { type: 'CreateTournament', tournamentId: 't1', clubId: 'c1', name: 'X', engine: 'dice-race', format: rr };
    expectRefused(given(), cmd, member('mo'), E.notDirector);
    expectRefused(given(created(rr)), cmd, director(), E.exists);
  });

  it('club members enter themselves, once, while entries are open and there is room', () => {
    const s = given(created(rr, { maxPlayers: 2 }), joined('A'));
    expectEvents(s, { type: 'JoinTournament', player: 'B', rating: 1620 }, member('B'), [{ type: 'PlayerJoined', player: 'B', rating: 1620 }]);
    expectRefused(s, { type: 'JoinTournament', player: 'B', rating: 1620 }, member('A'), E.notYourself);
    expectRefused(s, { type: 'JoinTournament', player: 'B', rating: 1620 }, { kind: 'user', userId: 'B' }, E.notMember);
    expectRefused(s, { type: 'JoinTournament', player: 'A', rating: 1500 }, member('A'), E.alreadyJoined);
    expectRefused(given(created(rr, { maxPlayers: 2 }), joined('A'), joined('B')), { type: 'JoinTournament', player: 'C', rating: 1 }, member('C'), E.full);
  });

  it('withdrawing before the start simply leaves the list', () => {
    const { state } = run(fourJoined(), { type: 'WithdrawPlayer', player: 'C', reason: 'moving house' }, member('C'));
    expect([...state.players.keys()]).toEqual(['A', 'B', 'D']);
  });

  describe('startsAt: the scheduled start', () => {
    const at = '2026-12-01T18:00:00.000Z';
    const scheduled = (...players: string[]) => given(created(rr, { startsAt: at }), ...players.map((p) => joined(p)));
    const onSchedule = (now: string) => ({ type: 'StartOnSchedule', at: now }) as const;

    it('starts itself at that time, as a director would have started it', () => {
      const byDirector = run(scheduled('A', 'B', 'C'), { type: 'StartTournament' }, director()).events;
      expect(run(scheduled('A', 'B', 'C'), onSchedule(at), SYSTEM).events).toEqual(byDirector);
      expect(run(scheduled('A', 'B'), onSchedule('2026-12-02T00:00:00.000Z'), SYSTEM).state.status).toBe('running');
    });

    it('not before its time, not without a startsAt, never by a user, not twice', () => {
      expectRefused(scheduled('A', 'B'), onSchedule('2026-12-01T17:59:59.000Z'), SYSTEM, E.notYet);
      expectRefused(fourJoined(), onSchedule(at), SYSTEM, E.notYet);
      expectRefused(scheduled('A', 'B'), onSchedule(at), director(), E.systemOnly);
      const started = run(scheduled('A', 'B'), { type: 'StartTournament' }, director()).state;
      expectRefused(started, onSchedule(at), SYSTEM, E.notOpen);
    });

    it('with fewer than two players it is cancelled, with its reason, and takes no more commands', () => {
      const { events, state } = run(scheduled('A'), onSchedule(at), SYSTEM);
      expect(events).toEqual([{ type: 'TournamentCancelled', reason: 'too few players at the scheduled start (1; a tournament needs 2)' }]);
      expect(state.status).toBe('cancelled');
      expectRefused(state, { type: 'JoinTournament', player: 'B', rating: 1500 }, member('B'), E.cancelled);
      expectRefused(state, { type: 'StartTournament' }, director(), E.cancelled);
      expect(run(scheduled(), onSchedule(at), SYSTEM).state.status).toBe('cancelled');
    });

    it('a director moves the start (the old time no longer starts it) or removes it; nobody else, and not once started', () => {
      const later = '2026-12-08T18:00:00.000Z';
      const moved = run(scheduled('A', 'B'), { type: 'RescheduleStart', startsAt: later }, director());
      expect(moved.events).toEqual([{ type: 'StartRescheduled', startsAt: later }]);
      expect(moved.state.startsAt).toBe(later);
      expectRefused(moved.state, onSchedule(at), SYSTEM, E.notYet);
      expect(run(moved.state, onSchedule(later), SYSTEM).state.status).toBe('running');
      const removed = run(scheduled('A', 'B'), { type: 'RescheduleStart', startsAt: null }, director()).state;
      expect(removed.startsAt).toBeUndefined();
      expectRefused(removed, onSchedule(later), SYSTEM, E.notYet);
      expect(run(scheduled('A'), { type: 'RescheduleStart', startsAt: at }, director()).events).toEqual([]);
      expectRefused(scheduled('A', 'B'), { type: 'RescheduleStart', startsAt: later }, member('A'), E.notDirector);
      const started = run(scheduled('A', 'B'), { type: 'StartTournament' }, director()).state;
      expectRefused(started, { type: 'RescheduleStart', startsAt: later }, director(), E.notOpen);
    });
  });

  it('a director starts it: seeds by rating, round one paired, a game wanted for each pairing', () => {
    expectRefused(fourJoined(), { type: 'StartTournament' }, member('A'), E.notDirector);
    expectRefused(given(created(rr), joined('A')), { type: 'StartTournament' }, director(), E.tooFewPlayers);
    expectEvents(fourJoined(), { type: 'StartTournament' }, director(), [
      { type: 'TournamentStarted', seeds: ['A', 'B', 'C', 'D'] },
      {
        type: 'RoundPaired',
        round: 1,
        pairings: [
          { pairingId: 't1/r1/b1', board: 1, seats: ['A', 'D'] },
          { pairingId: 't1/r1/b2', board: 2, seats: ['C', 'B'] },
        ],
        byes: [],
      },
      { type: 'GameWanted', pairingId: 't1/r1/b1', round: 1, engine: 'dice-race', seats: ['A', 'D'], rated: true },
      { type: 'GameWanted', pairingId: 't1/r1/b2', round: 1, engine: 'dice-race', seats: ['C', 'B'], rated: true },
    ]);
    const started = run(fourJoined(), { type: 'StartTournament' }, director()).state;
    expectRefused(started, { type: 'JoinTournament', player: 'E', rating: 1 }, member('E'), E.notOpen);
  });
});

describe('results flow into rounds', () => {
  const started = () => bindAll(run(fourJoined(), { type: 'StartTournament' }, director()).state);

  it('each pairing is bound to its game once, by the system', () => {
    const s = run(fourJoined(), { type: 'StartTournament' }, director()).state;
    // What the application layer still has to create (also after a crash between the append and the game's creation).
    expect(gamesWanted(s).map((p) => p.pairingId)).toEqual(['t1/r1/b1', 't1/r1/b2']);
    expectEvents(s, { type: 'BindGame', pairingId: 't1/r1/b1', gameId: 'g-17' }, SYSTEM, [{ type: 'GameBound', pairingId: 't1/r1/b1', gameId: 'g-17' }]);
    expectRefused(s, { type: 'BindGame', pairingId: 't1/r1/b1', gameId: 'g-17' }, director(), E.systemOnly);
    expectRefused(s, { type: 'BindGame', pairingId: 't1/r9/b1', gameId: 'g-17' }, SYSTEM, E.unknownPairing);
    const bound = run(s, { type: 'BindGame', pairingId: 't1/r1/b1', gameId: 'g-17' }, SYSTEM).state;
    expectRefused(bound, { type: 'BindGame', pairingId: 't1/r1/b1', gameId: 'g-18' }, SYSTEM, E.alreadyBound);
    expectRefused(bound, { type: 'BindGame', pairingId: 't1/r1/b2', gameId: 'g-17' }, SYSTEM, E.gameInUse);
  });

  it('a game’s end records the result; the round’s last result pairs the next round in the same decision', () => {
    const s = started();
    const first = result(s, 't1/r1/b1', 'A');
    expect(first.events).toEqual([{ type: 'ResultRecorded', pairingId: 't1/r1/b1', points: [1, 0], winner: 'A', how: 'played' }]);
    expectRefused(first.state, { type: 'RecordResult', gameId: 'g:t1/r1/b1', winner: 'A' }, SYSTEM, E.resultKnown);
    expectRefused(first.state, { type: 'RecordResult', gameId: 'g:t1/r1/b2', winner: 'A' }, SYSTEM, E.notInPairing);
    expectRefused(first.state, { type: 'RecordResult', gameId: 'g:elsewhere', winner: null }, SYSTEM, E.unknownGame);
    const last = result(first.state, 't1/r1/b2', null);
    expect(last.events.map((e) => e.type)).toEqual(['ResultRecorded', 'RoundPaired', 'GameWanted', 'GameWanted']);
    expect(last.events[0]).toEqual({ type: 'ResultRecorded', pairingId: 't1/r1/b2', points: [0.5, 0.5], winner: null, how: 'played' });
    expect(last.state.rounds).toHaveLength(2);
  });

  it('the last game of the last round finishes the tournament with its standings', () => {
    let s = started();
    const random = seeded(9);
    while (s.status === 'running') {
      s = bindAll(s);
      for (const p of openPairings(s)) s = result(s, p.pairingId, random() < 0.5 ? p.seats[0] : p.seats[1]).state;
    }
    expect(s.status).toBe('finished');
    expect(s.rounds).toHaveLength(3);
    expect(s.standings.map((r) => r.player).sort()).toEqual(['A', 'B', 'C', 'D']);
    expect(s.standings.reduce((t, r) => t + r.points, 0)).toBe(6);
    expect(s.standings[0]!.rank).toBe(1);
    expect(s.standings[0]!.tiebreaks).toHaveProperty('sonnebornBerger');
    expectRefused(s, { type: 'StartTournament' }, director(), E.finished);
  });
});

describe('forfeits, adjudication and withdrawals (each with a reason)', () => {
  const started = (format: Parameters<typeof created>[0] = rr) => bindAll(run(fourJoined(format), { type: 'StartTournament' }, director()).state);

  it('a forfeit on time: the system reports it, the other player scores the point', () => {
    expectEvents(started(), { type: 'Forfeit', pairingId: 't1/r1/b1', loser: 'D', reason: 'time: no move in 72 hours' }, SYSTEM, [
      { type: 'ResultRecorded', pairingId: 't1/r1/b1', points: [1, 0], winner: 'A', how: 'forfeit', reason: 'time: no move in 72 hours' },
    ]);
    expectRefused(started(), { type: 'Forfeit', pairingId: 't1/r1/b1', loser: 'D', reason: 'time' }, member('A'), E.notDirector);
    expectRefused(started(), { type: 'Forfeit', pairingId: 't1/r1/b1', loser: 'B', reason: 'time' }, SYSTEM, E.notInPairing);
  });

  it('a director adjudicates an unfinished game with a reason; members may not', () => {
    expectEvents(started(), { type: 'Adjudicate', pairingId: 't1/r1/b2', winner: null, reason: 'dead drawn position, both agree' }, director(), [
      { type: 'ResultRecorded', pairingId: 't1/r1/b2', points: [0.5, 0.5], winner: null, how: 'adjudicated', reason: 'dead drawn position, both agree' },
    ]);
    expectRefused(started(), { type: 'Adjudicate', pairingId: 't1/r1/b2', winner: 'B', reason: 'I say so' }, member('B'), E.notDirector);
    // The tournament's creator directs it even without a club role.
    const s = started();
    expect(run(s, { type: 'Adjudicate', pairingId: 't1/r1/b2', winner: 'B', reason: 'C abandoned' }, { kind: 'user', userId: 'dora' }).events).toHaveLength(1);
  });

  it('round robin: a player who withdraws mid-event forfeits the game in progress and every remaining game', () => {
    let s = started();
    s = result(s, 't1/r1/b1', 'A').state;
    const w = run(s, { type: 'WithdrawPlayer', player: 'B', reason: 'illness' }, member('B'));
    // B's round-one game is forfeited, which completes round one and pairs round two; B's round-two game is forfeited at once.
    expect(w.events[0]).toEqual({ type: 'PlayerWithdrew', player: 'B', reason: 'illness', round: 1 });
    expect(w.events[1]).toEqual({ type: 'ResultRecorded', pairingId: 't1/r1/b2', points: [1, 0], winner: 'C', how: 'forfeit', reason: 'withdrew: illness' });
    const r2 = w.events.find((e): e is Extract<TournamentEvent, { type: 'RoundPaired' }> => e.type === 'RoundPaired')!;
    const bGame = r2.pairings.find((p) => p.seats.includes('B'))!;
    expect(w.events).toContainEqual(
      expect.objectContaining({ type: 'ResultRecorded', pairingId: bGame.pairingId, how: 'forfeit', winner: bGame.seats.find((x) => x !== 'B') }),
    );
    expect(w.events.filter((e) => e.type === 'GameWanted')).toHaveLength(1);
    expectRefused(w.state, { type: 'WithdrawPlayer', player: 'B', reason: 'again' }, director(), E.withdrawn);
    expectRefused(w.state, { type: 'WithdrawPlayer', player: 'C', reason: 'spite' }, member('A'), E.notDirector);
    // Played to the end, B lost all three games and is marked withdrawn.
    s = w.state;
    while (s.status === 'running') {
      s = bindAll(s);
      for (const p of openPairings(s)) s = result(s, p.pairingId, null).state;
    }
    expect(s.standings.find((r) => r.player === 'B')).toMatchObject({ points: 0, played: 3, losses: 3, withdrawn: true });
  });

  it('Swiss: a withdrawn player is no longer paired', () => {
    let s = started({ kind: 'swiss', rounds: 3 });
    s = run(s, { type: 'WithdrawPlayer', player: 'D', reason: 'no time to play' }, director()).state;
    s = bindAll(s);
    for (const p of openPairings(s)) s = result(s, p.pairingId, p.seats[0]).state;
    const round2 = s.rounds[1]!;
    expect(round2.pairingIds).toHaveLength(1);
    expect(round2.byes.map((b) => b.player)).toHaveLength(1);
    const everyone = [...round2.pairingIds.flatMap((id) => s.pairings.get(id)!.seats), ...round2.byes.map((b) => b.player)];
    expect(everyone).not.toContain('D');
    expect(round2.byes[0]!.points).toBe(1);
  });
});

describe('single elimination', () => {
  const five = () =>
    given(created({ kind: 'single-elimination' }), joined('E', 1400), joined('A', 1800), joined('B', 1700), joined('C', 1600), joined('D', 1500));

  it('byes go to the top seeds; 4 v 5 is the only first-round game', () => {
    const { state, events } = run(five(), { type: 'StartTournament' }, director());
    const r1 = events.find((e) => e.type === 'RoundPaired') as Extract<TournamentEvent, { type: 'RoundPaired' }>;
    expect(r1.lineup).toEqual(['A', null, 'D', 'E', 'B', null, 'C', null]);
    expect(r1.pairings).toEqual([{ pairingId: 't1/r1/b1', board: 1, seats: ['D', 'E'] }]);
    expect(r1.byes.map((b) => b.player)).toEqual(['A', 'B', 'C']);
    expect(state.seeds).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('a drawn game sends the higher seed through; the final ends the event with places', () => {
    let s = bindAll(run(five(), { type: 'StartTournament' }, director()).state);
    s = result(s, 't1/r1/b1', null).state; // D (seed 4) v E (seed 5) drawn: D advances.
    expect(s.rounds[1]!.lineup).toEqual(['A', 'D', 'B', 'C']);
    s = bindAll(s);
    const [semi1, semi2] = openPairings(s);
    expect(semi1!.seats).toContain('A');
    s = result(s, semi1!.pairingId, 'D').state;
    s = result(s, semi2!.pairingId, 'C').state;
    s = bindAll(s);
    const final = openPairings(s)[0]!;
    expect([...final.seats].sort()).toEqual(['C', 'D']);
    s = result(s, final.pairingId, null).state; // A drawn final: C is the higher seed.
    expect(s.status).toBe('finished');
    expect(s.standings.map((r) => [r.rank, r.player])).toEqual([
      [1, 'C'],
      [2, 'D'],
      [3, 'A'],
      [3, 'B'],
      [5, 'E'],
    ]);
  });

  it('a player who withdraws forfeits, and the opponent advances', () => {
    let s = bindAll(run(five(), { type: 'StartTournament' }, director()).state);
    s = run(s, { type: 'WithdrawPlayer', player: 'D', reason: 'called away' }, member('D')).state;
    expect(s.rounds[1]!.lineup).toEqual(['A', 'E', 'B', 'C']);
  });
});

describe('whole events with seeded random results', () => {
  const formats = [
    { kind: 'round-robin', cycles: 1 },
    { kind: 'round-robin', cycles: 2 },
    { kind: 'swiss', rounds: 5 },
    { kind: 'single-elimination' },
  ] as const;
  for (const format of formats) {
    it(`${JSON.stringify(format)}: 2 to 13 players, some withdrawing, always finish with everyone in the standings`, () => {
      for (let n = 2; n <= 13; n++) {
        const random = seeded(n * 31 + format.kind.length);
        const ids = Array.from({ length: n }, (_, i) => `p${i + 1}`);
        let s = given(created(format), ...ids.map((p, i) => joined(p, 2000 - i * 10)));
        s = run(s, { type: 'StartTournament' }, director()).state;
        let steps = 0;
        while (s.status === 'running') {
          expect(steps++).toBeLessThan(500);
          s = bindAll(s);
          for (const p of openPairings(s)) {
            const x = random();
            if (x < 0.03) {
              const who = p.seats[x < 0.015 ? 0 : 1];
              if (!s.players.get(who)!.withdrawn) s = run(s, { type: 'WithdrawPlayer', player: who, reason: 'random' }, director()).state;
              continue;
            }
            if (x < 0.06) s = run(s, { type: 'Forfeit', pairingId: p.pairingId, loser: p.seats[0], reason: 'time' }, SYSTEM).state;
            else s = result(s, p.pairingId, x < 0.2 ? null : x < 0.6 ? p.seats[0] : p.seats[1]).state;
          }
        }
        expect(s.status).toBe('finished');
        expect(s.standings.map((r) => r.player).sort()).toEqual([...ids].sort());
        expect(tournamentStandings(s)).toEqual(s.standings);
        const met = new Map<string, number>();
        for (const p of s.pairings.values()) {
          const k = [...p.seats].sort().join('|');
          met.set(k, (met.get(k) ?? 0) + 1);
          expect(p.result).toBeDefined();
        }
        if (format.kind === 'round-robin') {
          expect(met.size).toBe((n * (n - 1)) / 2);
          expect([...met.values()].every((k) => k === format.cycles)).toBe(true);
          // Double: the second meeting has the sides swapped.
          const games = new Set([...s.pairings.values()].map((p) => p.seats.join('>')));
          if (format.cycles === 2) for (const g of games) expect(games.has(g.split('>').reverse().join('>'))).toBe(true);
        }
        // Five rounds with ten or more players still in: a rematch is always avoidable (Dirac), so none happens.
        const stayed = [...s.players.values()].filter((p) => !p.withdrawn).length;
        if (format.kind === 'swiss' && stayed >= 10) expect([...met.values()].every((k) => k === 1)).toBe(true);
        if (format.kind === 'single-elimination') expect(s.standings.filter((r) => r.rank === 1)).toHaveLength(1);
      }
    });
  }
});
