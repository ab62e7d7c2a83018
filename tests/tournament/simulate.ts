import type { PlayerId, RoundPlan, Side } from '../../domain/tournament/pairing.js';
import { pairSwiss, type SwissEntrant } from '../../domain/tournament/swiss.js';
import { seeded } from '../support/seeded.js';

export interface SwissRecord {
  id: PlayerId;
  seed: number;
  score: number;
  opponents: PlayerId[];
  sides: Side[];
  byes: number;
}

export const players = (n: number): PlayerId[] => Array.from({ length: n }, (_, i) => `p${String(i + 1).padStart(3, '0')}`);

/** Applies a round: random results (the better seed a little likelier to win), a full point for a bye. */
export function playRound(field: Map<PlayerId, SwissRecord>, plan: RoundPlan, random: () => number): void {
  for (const { seats } of plan.pairs) {
    const a = field.get(seats[0])!;
    const b = field.get(seats[1])!;
    const x = random() + (b.seed - a.seed) * 0.002;
    const sa = x < 0.15 ? 0.5 : x < 0.575 ? 0 : 1;
    a.score += sa;
    b.score += 1 - sa;
    a.opponents.push(b.id);
    b.opponents.push(a.id);
    a.sides.push(0);
    b.sides.push(1);
  }
  for (const p of plan.byes) {
    const r = field.get(p)!;
    r.score += 1;
    r.byes += 1;
  }
}

export const entrants = (field: Map<PlayerId, SwissRecord>): SwissEntrant[] => [...field.values()].map((r) => ({ ...r }));

/** A Swiss event of n players played for `rounds` rounds with seeded random results; returns the field and every round's plan. */
export function simulateSwiss(n: number, rounds: number, seed: number): { field: Map<PlayerId, SwissRecord>; plans: RoundPlan[] } {
  const random = seeded(seed);
  const field = new Map(players(n).map((id, i) => [id, { id, seed: i, score: 0, opponents: [], sides: [], byes: 0 } as SwissRecord]));
  const plans: RoundPlan[] = [];
  for (let r = 0; r < rounds; r++) {
    const plan = pairSwiss(entrants(field));
    plans.push(plan);
    playRound(field, plan, random);
  }
  return { field, plans };
}
