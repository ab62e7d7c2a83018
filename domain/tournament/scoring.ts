// Results and standings: how a pairing's result scores (a game played or adjudicated, a
// forfeit) and the table as it stands, by format. The tiebreaks themselves are standings.ts's.
import { assertNever } from '../kernel/errors.js';
import { advancing, eliminationPlaces } from './elimination.js';
import type { PlayerId } from './pairing.js';
import { computeStandings, type GameScore, type Standing } from './standings.js';
import { currentRound, isWithdrawn, pairingsOf, type PairingState, type ResultHow, type TournamentEvent, type TournamentState } from './tournament.js';

/** A game played or adjudicated: 1–0 to the winner, ½–½ for a draw. */
export function resultOf(p: PairingState, winner: PlayerId | null, how: ResultHow, reason?: string): TournamentEvent {
  const points: [number, number] = winner === null ? [0.5, 0.5] : winner === p.seats[0] ? [1, 0] : [0, 1];
  return { type: 'ResultRecorded', pairingId: p.pairingId, points, winner, how, ...(reason !== undefined ? { reason } : {}) };
}

/** A forfeit by one or both players: the other scores the point; when both forfeit, nobody does. */
export function forfeitOf(p: PairingState, losers: readonly PlayerId[], reason: string): TournamentEvent {
  const lost = (i: 0 | 1) => losers.includes(p.seats[i]);
  const points: [number, number] = [lost(0) ? 0 : 1, lost(1) ? 0 : 1];
  const winner = points[0] > points[1] ? p.seats[0] : points[1] > points[0] ? p.seats[1] : null;
  return { type: 'ResultRecorded', pairingId: p.pairingId, points, winner, how: 'forfeit', reason };
}

/** Games of the event, scored, in round order. */
function scoredGames(s: TournamentState): GameScore[] {
  return s.rounds.flatMap((r) => pairingsOf(s, r).flatMap((p) => (p.result ? [{ round: r.round, seats: p.seats, points: p.result.points }] : [])));
}

/** The table as it stands (final once the tournament has finished). */
export function tournamentStandings(s: TournamentState): Standing[] {
  if (s.status === 'finished') return [...s.standings];
  const entrants = s.seeds.map((player, seed) => ({ player, seed, ...(isWithdrawn(s, player) ? { withdrawn: true } : {}) }));
  const games = scoredGames(s);
  const byes = s.rounds.flatMap((r) => r.byes);
  switch (s.format.kind) {
    case 'round-robin':
      return computeStandings('round-robin', entrants, games, byes);
    case 'swiss':
      return computeStandings('swiss', entrants, games, byes);
    case 'single-elimination': {
      const base = new Map(computeStandings('swiss', entrants, games, byes).map((x) => [x.player, x]));
      const wentOut = new Map<PlayerId, number>();
      for (const r of s.rounds) {
        for (const p of pairingsOf(s, r)) {
          if (!p.result) continue;
          const through = advancing(s.seeds, p.seats, p.result.points);
          for (const x of p.seats) if (x !== through) wentOut.set(x, r.round);
        }
      }
      const last = currentRound(s);
      const finalDone = last !== undefined && last.pairingIds.length === 1 && pairingsOf(s, last).every((p) => p.result);
      const champion = finalDone ? advancing(s.seeds, pairingsOf(s, last)[0]!.seats, pairingsOf(s, last)[0]!.result!.points) : null;
      return eliminationPlaces(s.seeds, wentOut, champion).map(({ player, rank, round }) => ({
        ...base.get(player)!,
        rank,
        roundReached: round,
        tiebreaks: {},
      }));
    }
    default:
      return assertNever(s.format, 'format');
  }
}
