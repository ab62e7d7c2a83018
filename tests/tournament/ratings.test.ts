import { describe, expect, it } from 'vitest';
import { glicko2Update, NEW_PLAYER } from '../../domain/tournament/glicko2.js';
import {
  RATING_ERRORS as E,
  decideRatings,
  evolveRatings,
  initialRatingsState,
  leaderboard,
  ratingOf,
  type RatingsState,
} from '../../domain/tournament/ratings.js';

const rate = (s: RatingsState, gameId: string, players: [string, string], winner: string | null, engine = 'spearpoint-1943'): RatingsState => {
  const r = decideRatings(s, { type: 'RateGame', engine, gameId, players, winner, at: `2026-11-24T10:00:${gameId.padStart(2, '0')}Z` });
  if (!r.ok) throw new Error(r.error.code);
  return r.value.reduce(evolveRatings, s);
};

describe('ratings per engine', () => {
  it('new players start at 1500/350/0.06; a rated game updates both from their ratings before it', () => {
    expect(ratingOf(initialRatingsState, 'spearpoint-1943', 'ann')).toMatchObject({ player: 'ann', ...NEW_PLAYER, games: 0, history: [] });
    const s = rate(initialRatingsState, '1', ['ann', 'bob'], 'ann');
    const ann = ratingOf(s, 'spearpoint-1943', 'ann');
    expect(ann).toMatchObject({ player: 'ann', games: 1, ...glicko2Update(NEW_PLAYER, [{ opponent: NEW_PLAYER, score: 1 }]) });
    expect(ann.history).toEqual([{ gameId: '1', at: '2026-11-24T10:00:01Z', rating: ann.rating, deviation: ann.deviation, volatility: ann.volatility }]);
    expect(ratingOf(s, 'spearpoint-1943', 'bob').rating).toBeCloseTo(3000 - ann.rating, 9);
    // Engines are rated separately.
    expect(ratingOf(s, 'front-line', 'ann').rating).toBe(1500);
  });

  it('a game is rated once; self-play and an outside winner are refused', () => {
    const s = rate(initialRatingsState, '1', ['ann', 'bob'], null);
    const again = decideRatings(s, { type: 'RateGame', engine: 'spearpoint-1943', gameId: '1', players: ['ann', 'bob'], winner: null, at: 'x' });
    expect(again.ok ? 'ok' : again.error.code).toBe(E.alreadyRated);
    const self = decideRatings(s, { type: 'RateGame', engine: 'spearpoint-1943', gameId: '2', players: ['ann', 'ann'], winner: null, at: 'x' });
    expect(self.ok ? 'ok' : self.error.code).toBe(E.samePlayer);
    const outside = decideRatings(s, { type: 'RateGame', engine: 'spearpoint-1943', gameId: '3', players: ['ann', 'bob'], winner: 'cy', at: 'x' });
    expect(outside.ok ? 'ok' : outside.error.code).toBe(E.notInGame);
  });

  it('the leaderboard ranks by rating and marks provisional players (deviation above 110)', () => {
    let s = initialRatingsState;
    // ann plays (and mostly wins) many games; cy plays one.
    for (let i = 1; i <= 30; i++) s = rate(s, String(i), ['ann', 'bob'], i % 3 === 0 ? 'bob' : 'ann');
    s = rate(s, '31', ['cy', 'bob'], 'cy');
    const board = leaderboard(s, 'spearpoint-1943');
    // One win against a weaker but well-known player lifts a new player far (their deviation is wide): cy leads, provisionally.
    expect(board.map((r) => [r.rank, r.player, r.provisional])).toEqual([
      [1, 'cy', true],
      [2, 'ann', false],
      [3, 'bob', false],
    ]);
    expect(board[0]!.deviation).toBeGreaterThan(110);
    expect(board[1]!.rating).toBeGreaterThan(board[2]!.rating);
    expect(ratingOf(s, 'spearpoint-1943', 'ann').history).toHaveLength(30);
    expect(leaderboard(s, 'spearpoint-1943', { established: true }).map((r) => [r.rank, r.player])).toEqual([
      [1, 'ann'],
      [2, 'bob'],
    ]);
  });
});
