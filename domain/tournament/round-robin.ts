import type { Pair, PlayerId, RoundPlan } from './pairing.js';

/**
 * A round robin by the circle method (Berger tables): with an odd field a phantom joins and
 * whoever meets it sits the round out. Every pair meets once per cycle; in a double round
 * robin the second cycle repeats the first with sides swapped, so each pair plays both sides.
 * Sides: the fixed player alternates each round; on the other boards the player who rotates
 * in from the top takes side 0 on even boards, which keeps every player's balance within one.
 */
export function roundRobinSchedule(players: readonly PlayerId[], cycles: 1 | 2 = 1): RoundPlan[] {
  const field: (PlayerId | null)[] = [...players];
  if (field.length % 2 === 1) field.push(null);
  const n = field.length;
  const single: RoundPlan[] = [];
  if (n < 2) return single;
  // Positions 0..n-2 rotate; position n-1 is fixed.
  let ring = field.slice(0, n - 1);
  const fixed = field[n - 1]!;
  for (let r = 0; r < n - 1; r++) {
    const pairs: Pair[] = [];
    const byes: PlayerId[] = [];
    const add = (a: PlayerId | null, b: PlayerId | null) => {
      if (a === null && b !== null) byes.push(b);
      else if (b === null && a !== null) byes.push(a);
      else if (a !== null && b !== null) pairs.push({ seats: [a, b] });
    };
    // Board 1: the fixed player against the ring's head, sides alternating by round.
    const head = ring[0]!;
    if (r % 2 === 0) add(head, fixed);
    else add(fixed, head);
    for (let i = 1; i < n / 2; i++) {
      const top = ring[i]!;
      const bottom = ring[n - 1 - i]!;
      if (i % 2 === 1) add(bottom, top);
      else add(top, bottom);
    }
    single.push({ pairs, byes });
    // Rotate: the ring moves n/2 places (Berger's step), so the head changes sides of the table.
    ring = ring.map((_, k) => ring[(k + n / 2) % (n - 1)]!);
  }
  if (cycles === 1) return single;
  return [...single, ...single.map((p) => ({ pairs: p.pairs.map(({ seats }) => ({ seats: [seats[1], seats[0]] as const })), byes: p.byes }))];
}
