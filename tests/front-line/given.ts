import { roundSupply } from '../../domain/front-line/rounds.js';
import type { Kind, SupplyType } from '../../domain/front-line/data.js';
import type { Edge, Leadership, State, Unit } from '../../domain/front-line/model.js';
import { fresh } from './harness.js';

/** A unit placed for a test: `as` names it in the test (the engine id is returned in `ids`). */
export interface Place {
  readonly seat: string;
  readonly kind: Kind;
  readonly sq: string;
  readonly active?: boolean;
  readonly as?: string;
}

export interface Given {
  options?: unknown;
  mover?: string;
  /** The stack the mover has chosen, with this many chits left. */
  stack?: SupplyType;
  n?: number;
  leadership?: Record<string, Leadership>;
  fallen?: string[];
  edge?: Edge[];
}

/** A game in play (round 1, September) with exactly these units on the battlefield; every other unit in Reserve. */
export function given(places: readonly Place[], g: Given = {}): { s: State; ids: Record<string, string> } {
  let s = fresh(g.options ?? {});
  const ids: Record<string, string> = {};
  const used = new Set<string>();
  const units: Unit[] = s.units.map((u) => ({ ...u }));
  for (const p of places) {
    const seat = s.seats.find((x) => x.id === p.seat)!;
    const i = units.findIndex((u) => u.color === seat.color && u.home === seat.board && u.kind === p.kind && !used.has(u.id));
    used.add(units[i]!.id);
    units[i] = { ...units[i]!, sq: p.sq, active: p.active ?? true };
    if (p.as) ids[p.as] = units[i]!.id;
  }
  s = { ...s, units, phase: 'play', round: 1, fallen: g.fallen ?? [], ...(g.edge ? { edge: g.edge } : {}) };
  s = { ...s, seats: s.seats.map((x) => ({ ...x, setupDone: true, leadership: g.leadership?.[x.id] ?? 'available', stacks: roundSupply(s, x, 1) })) };
  const mover = g.mover ?? s.order[0]!;
  s = { ...s, first: s.order.indexOf(mover) };
  if (g.stack) {
    const max = s.seats.find((x) => x.id === mover)!.stacks[g.stack].n;
    s = {
      ...s,
      chosen: { stack: g.stack, n: g.n ?? max, max, fallen: false },
      seats: s.seats.map((x) => (x.id === mover ? { ...x, stacks: { ...x.stacks, [g.stack!]: { ...x.stacks[g.stack!], used: true } } } : x)),
    };
  }
  return { s, ids };
}
