import { describe, expect, it } from 'vitest';
import { evolveClub, initialClubState, type ClubEvent } from '../../domain/tournament/club.js';
import { decideRatings, evolveRatings, initialRatingsState } from '../../domain/tournament/ratings.js';
import { clubView, leaderboardView, ratingView, tournamentView } from '../../domain/tournament/views.js';
import { SYSTEM, bindAll, created, director, given, joined, openPairings, run } from './given.js';

describe('reply shapes', () => {
  it('a tournament names its ids, each pairing its gameId, and ends "finished" with standings', () => {
    expect(tournamentView(given())).toBeUndefined();
    let s = run(
      given(created({ kind: 'swiss', rounds: 2 }), joined('A', 1700), joined('B', 1600), joined('C', 1500)),
      { type: 'StartTournament' },
      director(),
    ).state;
    expect(tournamentView(s)).toMatchObject({ tournamentId: 't1', clubId: 'c1', status: 'running' });
    s = bindAll(s);
    expect(tournamentView(s)!.rounds[0]!.pairings[0]).toMatchObject({ pairingId: 't1/r1/b1', gameId: 'g:t1/r1/b1' });
    while (s.status === 'running') {
      s = bindAll(s);
      for (const p of openPairings(s)) s = run(s, { type: 'RecordResult', gameId: p.gameId!, winner: p.seats[0] }, SYSTEM).state;
    }
    const v = tournamentView(s)!;
    expect(v.status).toBe('finished');
    expect(v.standings.map((r) => r.player).sort()).toEqual(['A', 'B', 'C']);
    expect(v.players.map((p) => [p.player, p.seed])).toEqual([
      ['A', 1],
      ['B', 2],
      ['C', 3],
    ]);
    expect(v.rounds.every((r) => r.pairings.every((p) => p.gameId !== undefined && p.result !== undefined))).toBe(true);
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
  });

  it('a club names its clubId; invitations and the join code show only to its managers', () => {
    const events: ClubEvent[] = [
      { type: 'ClubCreated', clubId: 'c1', name: 'PBW', description: '', owner: 'olga' },
      { type: 'MemberJoined', member: 'olga', role: 'owner', via: 'founder' },
      { type: 'MemberJoined', member: 'mo', role: 'member', via: 'code' },
      { type: 'MemberInvited', invitee: 'ivan', role: 'member', by: 'olga' },
    ];
    const s = events.reduce(evolveClub, initialClubState);
    expect(clubView(s, 'olga')).toMatchObject({ clubId: 'c1', invitations: [{ player: 'ivan', role: 'member' }], joinCodeSet: false });
    expect(clubView(s, 'mo')).not.toHaveProperty('invitations');
    expect(clubView(s, null)!.members).toEqual([
      { player: 'olga', role: 'owner' },
      { player: 'mo', role: 'member' },
    ]);
  });

  it('rating entries name their player', () => {
    const r = decideRatings(initialRatingsState, {
      type: 'RateGame',
      engine: 'e',
      gameId: 'g1',
      players: ['ann', 'bob'],
      winner: 'bob',
      at: '2026-11-24T12:00:00Z',
    });
    const s = (r.ok ? r.value : []).reduce(evolveRatings, initialRatingsState);
    expect(ratingView(s, 'e', 'bob')).toMatchObject({ engine: 'e', player: 'bob', games: 1, provisional: true });
    expect(leaderboardView(s, 'e').entries.map((x) => x.player)).toEqual(['bob', 'ann']);
  });
});
