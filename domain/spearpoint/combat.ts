import { SEATS } from './model.js';
import type { Out } from './out.js';
import { rearBecomesFront } from './commitment.js';
import { finishDraw } from './draw.js';
import { attackVoid, unopposed } from './rules.js';
import { checkEndOfTurn, checkVictory } from './victory.js';

/**
 * 001 Combat Phase: what holds the phase together. Declared attacks that can no longer be made
 * are called off; at the end of the phase damaged units recover (Damage Resolution), aircraft
 * out of fuel return under the Reserves deck (Commitment Phase), a side with no front line left
 * moves its rear line up, the Overrun count is taken (Winning the Game), and the Draw Phase begins.
 */

/** Calls off every pending attack (but `except`) whose attackers or target can no longer take part. */
export function sweepVoid(out: Out, except?: string): void {
  for (const a of out.s.attacks) {
    if (a.status !== 'pending' || a.id === except) continue;
    const why = attackVoid(out.s, a);
    if (why) out.emit({ type: 'AttackCancelled', attackId: a.id, reason: why });
  }
}

/** The end of the Combat Phase. */
export function endCombat(out: Out): void {
  const before = new Set(Object.keys(out.s.inPlay));
  out.emit({ type: 'CombatEnded' });
  for (const u of Object.values(out.s.inPlay)) {
    if (u.turnsLeft !== null && u.turnsLeft <= 0) out.emit({ type: 'AircraftReturned', seat: u.controller, unit: u.id, pilot: u.crew });
  }
  rearBecomesFront(out, before);
  const counts = { us: unopposed(out.s, 'us') ? out.s.seats.us.overrun + 1 : 0, de: unopposed(out.s, 'de') ? out.s.seats.de.overrun + 1 : 0 };
  out.emit({ type: 'OverrunCounted', counts });
  if (checkVictory(out) || checkEndOfTurn(out)) return;
  out.emit({ type: 'DrawPhaseBegan' });
  for (const seat of SEATS) finishDraw(out, seat);
}
