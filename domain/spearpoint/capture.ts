import type { Ctx } from '../kernel/engine.js';
import type { Side } from '../frontline-general/data/schema.js';
import { unitIn, type OrderStep } from './model.js';
import type { Out } from './out.js';
import { costOf, hasFrontInfantry, victoryPoints } from './rules.js';

/**
 * Capture (001 Damage Resolution: an enemy that captures a crewed unit also captures its crew,
 * and may keep the unit idle in its battle area until it commits a crew; 001 Victory Points:
 * captured units score double). The representative catalog captures with a Command card
 * ("Capture That Unit!"): a damaged enemy crewed ground unit, with front-line infantry, on 1d10.
 */

/** Resolves a revealed capture card: the roll (a card named to boost it is discarded just before), and the capture. */
export function resolveCapture(
  out: Out,
  ctx: Ctx,
  seat: Side,
  st: Extract<OrderStep, { kind: 'card' }>,
  minRoll: number,
  void_: (reason: string) => void,
): void {
  const s = out.s;
  const target = st.target;
  const u = unitIn(s, target!)!;
  if (u.controller === seat || u.damageCard === null || !hasFrontInfantry(s, seat))
    return void_('the target is no longer a damaged enemy unit, or you have no front-line infantry');
  out.emit({ type: 'CommandCardPlayed', seat, card: st.card, target });
  const boosted = st.boost !== null && out.s.seats[seat].commands.includes(st.boost);
  if (boosted) out.emit({ type: 'CommandCardDiscardedForBonus', seat, card: st.boost!, roll: 'capture' });
  const bonus = boosted ? 1 : 0;
  const die = ctx.rng.die(10);
  const success = die + bonus >= minRoll;
  out.emit({ type: 'CaptureRolled', seat, card: st.card, target: u.id, die, bonus, needed: minRoll, success });
  if (success) {
    out.emit({
      type: 'UnitCaptured',
      by: seat,
      unit: u.id,
      crew: u.crew,
      kept: st.keep,
      // Captured units score double whether the captor keeps them or not (001 Victory Points).
      unitPoints: victoryPoints(costOf(s, u.id), true),
      crewPoints: u.crew ? victoryPoints(costOf(s, u.crew), true) : 0,
    });
  }
}
