import type { Seat, State } from './model.js';

/**
 * Picking forces for a builder scenario (004 Creating Your Own Scenarios, Pick Your Forces):
 * each side secretly picks units of its army from the Unit Value Table, no more counters of a
 * unit than the box holds, for at most its points: Point Defense 80 for the defender and 160
 * for the attacker per map, Meeting Engagement 120 each. A force needs one troop unit (ruling).
 */
export const BUILDER_POINTS = { pointDefense: { defender: 80, attacker: 160 }, meetingEngagement: 120 } as const;

export function forceProblem(s: State, seat: Seat, units: readonly string[]): string | undefined {
  const b = s.builder;
  if (!b) return 'this game is not a builder scenario';
  const army = b.armies[seat];
  const counts = new Map<string, number>();
  let points = 0;
  let troops = 0;
  for (const id of units) {
    const t = s.unitTypes.find((x) => x.id === id);
    if (!t || t.army !== army) return `${id} is not a unit of the ${army} Unit Value Table`;
    const n = (counts.get(id) ?? 0) + 1;
    if (n > t.counters) return `only ${t.counters} counter(s) of ${t.name}`;
    counts.set(id, n);
    points += t.points;
    if (t.leader === undefined) troops += 1;
  }
  if (points > b.points[seat]) return `the force costs ${points} points; you have ${b.points[seat]}`;
  if (troops === 0) return 'a force needs at least one troop unit';
  return undefined;
}

/**
 * A few forces to offer as legal commands (any force within the rules is accepted): every unit
 * type in table order while it fits ("mixed"), the cheapest troop units ("infantry"), and the
 * dearest first ("heavy").
 */
export function sampleForces(s: State, seat: Seat): string[][] {
  const b = s.builder!;
  const table = s.unitTypes.filter((t) => t.army === b.armies[seat]);
  const fill = (order: typeof table, roundRobin: boolean): string[] => {
    const picked: string[] = [];
    let left = b.points[seat];
    const used = new Map<string, number>();
    for (let progress = true; progress;) {
      progress = false;
      for (const t of order) {
        const n = used.get(t.id) ?? 0;
        if (n >= t.counters || t.points > left) continue;
        picked.push(t.id);
        used.set(t.id, n + 1);
        left -= t.points;
        progress = true;
        if (roundRobin) continue;
        break;
      }
    }
    return picked;
  };
  const troops = table.filter((t) => t.leader === undefined);
  const forces = [
    fill(table, true),
    fill(
      [...troops].sort((a, c) => a.points - c.points),
      false,
    ),
    fill(
      [...table].sort((a, c) => c.points - a.points),
      false,
    ),
  ];
  const seen = new Set<string>();
  return forces.filter((f) => {
    const key = f.join(',');
    if (seen.has(key) || forceProblem(s, seat, f)) return false;
    seen.add(key);
    return true;
  });
}
