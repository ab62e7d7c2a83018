import { planDraw } from '../kernel/deck.js';
import type { Ctx } from '../kernel/engine.js';
import { HIDDEN } from '../kernel/visibility.js';
import { indexCatalog } from '../frontline-general/data/catalog.js';
import type { Side } from '../frontline-general/data/schema.js';
import { unitIn, other, type Attack } from './model.js';
import type { Out } from './out.js';
import {
  assaultParticipants,
  cardOf,
  costOf,
  crewFate,
  crewProtected,
  damageEdge,
  effectiveDefense,
  hasGroundUnit,
  intensityBonus,
  needsDamageCard,
  netDamage,
  victoryPoints,
} from './rules.js';
import { checkVictory } from './victory.js';

/**
 * 001 Combat Phase: Damage Resolution. A hit rolls 1d10 Intensity plus the weapon's Damage
 * Index, less the target's Defense, off its Endurance; at half Endurance or less a Damage card
 * is drawn and the edge for the unit's type applies; at zero the unit is destroyed, scoring its
 * cost, and the base Intensity die decides its crew's fate.
 */

/** Damage Resolution for one hit on `victim` (001 Combat Phase: Damage Resolution). */
export function resolveHit(
  out: Out,
  ctx: Ctx,
  a: Attack,
  weapon: number,
  victim: string,
  special: string | null,
  friendly: boolean,
  boostIntensity: boolean,
): void {
  const by: Side | null = friendly ? null : a.seat;
  if (special === 'destroyed-outright') {
    destroy(out, victim, by, 'outright', null);
    return;
  }
  const s = out.s;
  // A close assault rolls 1d10 for each infantry unit still able to take part.
  const intensity = weapon < 0 ? assaultParticipants(s, a).map(() => ctx.rng.die(10)) : [ctx.rng.die(10)];
  const doubled = special === 'double-intensity';
  const damageIndex = weapon < 0 ? 0 : cardOf(s, a.attackers[0]!).weapons[weapon]!.damageIndex;
  const bonus = (weapon < 0 ? 0 : intensityBonus(s, a.attackers[0]!)) + (boostIntensity ? 1 : 0);
  const defense = effectiveDefense(s, victim);
  const total = intensity.reduce((x, y) => x + y, 0);
  const net = netDamage(total, damageIndex, defense, { doubled, bonus });
  const endurance = unitIn(s, victim)!.endurance - net;
  out.emit({ type: 'HitResolved', attackId: a.id, target: victim, intensity, doubled, bonus, damageIndex, defense, net, endurance });
  if (endurance <= 0) {
    destroy(out, victim, by, 'damage', Math.max(...intensity));
    return;
  }
  const card = cardOf(out.s, victim);
  if (!needsDamageCard(card, endurance, unitIn(out.s, victim)!.damageCard !== null)) return;
  // The Damage deck is reshuffled from its discards when it runs out (001 Damage Resolution).
  const plan = planDraw(out.s.damageDeck, 1, ctx.rng, { reshuffle: 'when-empty' });
  if (plan.reshuffle) out.emit({ type: 'DamageDeckReshuffled', order: [...plan.reshuffle] }, HIDDEN);
  const top = plan.cards[0];
  if (top === undefined) return; // every Damage card is under some unit: none to draw, so this unit counts as undamaged
  out.emit({ type: 'DamageCardDrawn', unit: victim, card: top });
  const effect = indexCatalog(out.s.catalog).damage(top).effects[damageEdge(card.type)];
  const u = unitIn(out.s, victim)!;
  if (effect.kind === 'crewCasualty' && u.crew) {
    const refused = crewProtected(out.s, victim);
    if (refused) {
      out.emit({ type: 'DamageEffectRefused', unit: victim, card: top, code: refused.code, reason: refused.message });
      return;
    }
    out.emit({ type: 'CrewKilled', unit: victim, crew: u.crew, by, points: by ? costOf(out.s, u.crew) : 0 });
    checkVictory(out);
  } else if (effect.kind === 'explodes') {
    destroy(out, victim, by, 'explosion', null);
  }
}

/** A unit is destroyed: points for the destroyer (none for friendly fire), and its crew's fate. */
export function destroy(out: Out, unitId: string, by: Side | null, cause: 'damage' | 'outright' | 'explosion', baseIntensity: number | null): void {
  const s = out.s;
  const u = unitIn(s, unitId)!;
  let fate: 'returned' | 'captured' | 'lost' | null = null;
  let crewPoints = 0;
  if (u.crew) {
    fate = cause === 'damage' && baseIntensity !== null ? crewFate(baseIntensity, hasGroundUnit(s, other(u.controller))) : 'lost';
    // Friendly fire: the enemy did not take the crew, so a crew that would be captured is lost instead.
    if (by === null && fate === 'captured') fate = 'lost';
    crewPoints = by === null || fate === 'returned' ? 0 : victoryPoints(costOf(s, u.crew), fate === 'captured');
  }
  out.emit({ type: 'UnitDestroyed', unit: unitId, by, points: by ? costOf(s, unitId) : 0, cause, crew: u.crew, crewFate: fate, crewPoints, baseIntensity });
  checkVictory(out);
}
