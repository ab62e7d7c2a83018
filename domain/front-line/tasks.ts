// Leadership tasks (002 p.4–5): Cache, Maneuver and Relieve, and the Opportunity Fire window
// offered after an enemy unit used supply. Rally and Opportunity Fire itself are in attack.ts.
import type { Seat } from '../kernel/visibility.js';
import { boardOf, shootersAt, unitById } from './board.js';
import { seatOf, type Flow } from './flow.js';
import { otherColor, type Command } from './model.js';

export function cache(f: Flow, seat: Seat): void {
  f.emit({ type: 'LeadershipSet', seat, to: 'exhausted', task: 'Cache' });
  f.emit({ type: 'SupplyCached', seat });
}

export function maneuverOrRelieve(f: Flow, seat: Seat, c: Command & { type: 'Maneuver' | 'Relieve' }): void {
  const q = f.s.question;
  if (q) f.answered(seat, c.type);
  // A rally reward's Maneuver is free; any other task exhausts Leadership (002 p.4–5).
  if (q?.topic !== 'rally-reward') f.emit({ type: 'LeadershipSet', seat, to: 'exhausted', task: c.type });
  if (c.type === 'Maneuver') return f.emit({ type: 'UnitMoved', unit: c.unit, from: unitById(f.s, c.unit)!.sq!, to: c.to, how: 'maneuver' });
  f.emit({ type: 'UnitsSwapped', unit: c.unit, with: c.with });
}

/** After a unit used supply, the other colour on its battlefield may Opportunity Fire at it while Leadership is Available (002 p.5; EX7). */
export function offerOpportunityFire(f: Flow, unit: string, action: string): void {
  if (f.over()) return;
  const u = unitById(f.s, unit);
  if (!u || u.sq === null) return;
  const reactor = seatOf(f.s, otherColor(u.color), boardOf(f.s, u.sq));
  if (reactor.leadership !== 'available' || shootersAt(f.s, reactor.color, u.sq).length === 0) return;
  f.ask({ topic: 'opportunity-fire', seat: reactor.id, unit, action });
}
