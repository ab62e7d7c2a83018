import type { Ctx } from '../kernel/engine.js';
import { closeAssault } from './close-assault.js';
import { attackFeature } from './features.js';
import { areaShot, crewShot, directShot } from './fire.js';
import { tileAt, unitIn, type Attack, type State } from './model.js';
import type { Out } from './out.js';
import { cardOf, sumAttached } from './rules.js';
import { aimOf } from './targets.js';

/**
 * 003 §III Combat, resolving the declared attacks (9): each weapon in turn, or the whole close
 * assault, against its target, and which declared attacks are called off. The subsections live
 * beside it: targets.ts (legal targets, 1–8, 13, 15, 19, 23), fire.ts (rolls and hits, 4, 9, 14,
 * 15, 24), damage.ts (Damage cards and destroyed units, 11, 14), features.ts (destroying
 * features, 20–21) and close-assault.ts (16). The core's resolver is used under the 003 variant
 * (no friendly fire, 19–20 a Damage card, crews by Intensity).
 */

/** Resolves one declared attack (or opportunity fire): every weapon in turn against the same target. */
export function resolveAttack(out: Out, ctx: Ctx, a: Attack, boost: string | null): void {
  if (boost) out.emit({ type: 'CommandCardDiscarded', seat: a.seat, card: boost, purpose: 'hit' });
  let bonus = boost ? 1 : 0;
  const attacker = a.attackers[0]!;
  if (a.kind === 'assault') return closeAssault(out, ctx, a, bonus);
  for (const w of a.weapons) {
    const aim = aimOf(a.target);
    if (aim.kind === 'feature') {
      attackFeature(out, ctx, a, w, aim.space, bonus);
      return;
    }
    // Fire Mission!: an extra roll per weapon this turn (the card's rate-of-fire bonus).
    const shots = cardOf(out.s, attacker).weapons[w]!.rateOfFire + sumAttached(out.s, unitIn(out.s, attacker)!, 'rateOfFire');
    for (let shot = 0; shot < shots; shot++) {
      if (out.s.result || !unitIn(out.s, attacker)) return;
      if (aim.kind === 'unit' && !unitIn(out.s, aim.unit)) return; // destroyed by an earlier shot: no new target (003 Combat 9h)
      if (aim.kind === 'crew' && !unitIn(out.s, aim.gun)?.crew) return;
      if (aim.kind === 'area') areaShot(out, ctx, a, w, aim.space, bonus);
      else if (aim.kind === 'crew') crewShot(out, ctx, a, w, aim.gun, bonus);
      else directShot(out, ctx, a, w, aim.unit, bonus);
      bonus = 0;
    }
  }
}

/** Declared attacks that can no longer be made are called off (attacker or target gone). */
export function attackVoid(s: State, a: Attack): string | null {
  if (a.attackers.some((x) => !unitIn(s, x))) {
    if (a.kind !== 'assault' || a.attackers.filter((x) => unitIn(s, x)).length < 3) return 'the attacker is gone';
  }
  const aim = aimOf(a.target);
  if (aim.kind === 'unit' && !unitIn(s, aim.unit)) return 'the target is gone';
  if (aim.kind === 'crew' && !unitIn(s, aim.gun)?.crew) return 'the crew is gone';
  if (aim.kind === 'feature' && !tileAt(s, aim.space)?.intact) return 'the feature is already destroyed';
  if (a.attackers.some((x) => unitIn(s, x) && unitIn(s, x)!.shakenUntil >= s.turn)) return 'the attacker is shaken';
  if (a.attackers.some((x) => s.sabotaged.includes(x))) return 'the attacker is sabotaged';
  return null;
}
