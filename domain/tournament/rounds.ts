// Pairing rounds: after every decision, a completed round is followed by the next one (round
// robin, Swiss or single elimination), with immediate forfeits for withdrawn players where the
// format keeps them on the schedule, or by the end of the tournament.
import { assertNever } from '../kernel/errors.js';
import { advancing, firstLineup } from './elimination.js';
import { orderSides, type PlayerId, type RoundPlan, type Side } from './pairing.js';
import { roundRobinSchedule } from './round-robin.js';
import { forfeitOf, tournamentStandings } from './scoring.js';
import { pairSwiss, type SwissEntrant } from './swiss.js';
import { currentRound, evolveTournament, isWithdrawn, pairingsOf, type TournamentEvent, type TournamentState } from './tournament.js';

/**
 * The events a command produced, followed by whatever they set off: when the round in progress
 * is complete, the next round's pairings (with immediate forfeits for withdrawn players where
 * the format keeps them on the schedule), or the end of the tournament.
 */
export function after(s: TournamentState, events: TournamentEvent[]): TournamentEvent[] {
  const out = [...events];
  let state = events.reduce(evolveTournament, s);
  // A round made only of forfeits completes at once; loop until a round waits for games.
  for (let guard = 0; state.status === 'running' && guard < 1000; guard++) {
    const round = currentRound(state);
    if (round && pairingsOf(state, round).some((p) => !p.result)) break;
    const next = nextRound(state);
    out.push(...next);
    state = next.reduce(evolveTournament, state);
  }
  return out;
}

/** Side history of every player, oldest first. */
function sidesOf(s: TournamentState): Map<PlayerId, Side[]> {
  const sides = new Map<PlayerId, Side[]>(s.seeds.map((p) => [p, []]));
  for (const r of s.rounds)
    for (const p of pairingsOf(s, r)) {
      sides.get(p.seats[0])!.push(0);
      sides.get(p.seats[1])!.push(1);
    }
  return sides;
}

/** Pairs the round after the current one, or finishes the tournament. */
function nextRound(s: TournamentState): TournamentEvent[] {
  const number = s.rounds.length + 1;
  const finish = (): TournamentEvent[] => [{ type: 'TournamentFinished', standings: tournamentStandings(s) }];
  let plan: RoundPlan;
  let byePoints = 0;
  let lineup: (PlayerId | null)[] | undefined;
  switch (s.format.kind) {
    case 'round-robin': {
      // Withdrawn players stay on the schedule and forfeit, so everyone plays the same number of games.
      const schedule = roundRobinSchedule(s.seeds, s.format.cycles);
      const planned = schedule[number - 1];
      if (!planned) return finish();
      plan = planned;
      break;
    }
    case 'swiss': {
      // Withdrawn players are removed from later rounds.
      const active = s.seeds.filter((p) => !isWithdrawn(s, p));
      if (number > s.format.rounds || active.length < 2) return finish();
      const standing = new Map(tournamentStandings(s).map((x) => [x.player, x]));
      const sides = sidesOf(s);
      const opponents = new Map<PlayerId, PlayerId[]>(s.seeds.map((p) => [p, []]));
      for (const p of s.pairings.values()) {
        opponents.get(p.seats[0])!.push(p.seats[1]);
        opponents.get(p.seats[1])!.push(p.seats[0]);
      }
      const entrants: SwissEntrant[] = active.map((p) => ({
        id: p,
        score: standing.get(p)!.points,
        seed: s.seeds.indexOf(p),
        opponents: opponents.get(p)!,
        sides: sides.get(p)!,
        byes: standing.get(p)!.byes,
      }));
      plan = pairSwiss(entrants);
      byePoints = 1;
      break;
    }
    case 'single-elimination': {
      const previous = currentRound(s);
      if (!previous) lineup = firstLineup(s.seeds);
      else {
        const prevLineup = previous.lineup ?? [];
        const byPair = new Map(pairingsOf(s, previous).map((p) => [`${p.seats[0]}|${p.seats[1]}`, p]));
        lineup = [];
        for (let i = 0; i + 1 < prevLineup.length; i += 2) {
          const a = prevLineup[i] ?? null;
          const b = prevLineup[i + 1] ?? null;
          if (a === null || b === null) lineup.push(a ?? b);
          else {
            const p = byPair.get(`${a}|${b}`) ?? byPair.get(`${b}|${a}`);
            lineup.push(p?.result ? advancing(s.seeds, p.seats, p.result.points) : null);
          }
        }
      }
      if (lineup.length < 2) return finish();
      const sides = sidesOf(s);
      const pairs: { seats: readonly [PlayerId, PlayerId] }[] = [];
      const byes: PlayerId[] = [];
      for (let i = 0; i < lineup.length; i += 2) {
        const a = lineup[i] ?? null;
        const b = lineup[i + 1] ?? null;
        if (a !== null && b !== null) {
          const [hi, lo] = s.seeds.indexOf(a) <= s.seeds.indexOf(b) ? [a, b] : [b, a];
          pairs.push({ seats: orderSides(hi, sides.get(hi)!, lo, sides.get(lo)!) });
        } else if (a !== null || b !== null) byes.push((a ?? b)!);
      }
      // A final without finalists (both semi-finals double forfeits) ends the event.
      if (pairs.length === 0) return finish();
      plan = { pairs, byes };
      break;
    }
    default:
      return assertNever(s.format, 'format');
  }
  const pairings = plan.pairs.map((p, i) => ({
    pairingId: `${s.tournamentId}/r${number}/b${i + 1}`,
    board: i + 1,
    seats: [p.seats[0], p.seats[1]] as [PlayerId, PlayerId],
  }));
  const events: TournamentEvent[] = [
    {
      type: 'RoundPaired',
      round: number,
      pairings,
      byes: plan.byes.map((player) => ({ round: number, player, points: byePoints })),
      ...(lineup ? { lineup } : {}),
    },
  ];
  for (const p of pairings) {
    const gone = p.seats.filter((x) => isWithdrawn(s, x));
    if (gone.length > 0) events.push(forfeitOf({ pairingId: p.pairingId, round: number, board: p.board, seats: p.seats }, gone, 'withdrawn'));
    else
      events.push({
        type: 'GameWanted',
        pairingId: p.pairingId,
        round: number,
        engine: s.engine,
        seats: p.seats,
        rated: s.rated,
        ...(s.gameOptions !== undefined ? { options: { ...s.gameOptions } } : {}),
        ...(s.timeLimitHours !== undefined ? { timeLimitHours: s.timeLimitHours } : {}),
        ...(s.timeControl !== undefined ? { timeControl: s.timeControl } : {}),
      });
  }
  return events;
}
