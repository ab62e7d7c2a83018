import { planDraw } from '../kernel/deck.js';
import type { Ctx } from '../kernel/engine.js';
import { HIDDEN } from '../kernel/visibility.js';
import type { Side } from '../frontline-general/data/schema.js';
import { crewFate, MAP_EXPANSION, victoryPoints } from '../frontline-general/rules.js';
import { unitIn } from './model.js';
import type { Out } from './out.js';
import { cardOf, costOf, onMap } from './rules.js';
import { checkVictory } from './turn.js';

/** 003 §III Combat, what hits leave behind: Damage cards (14, 21; §II 14) and destroyed units with their crews' fate (11, 12). */

/** Draws and applies a Damage card; a unit that already has one is destroyed instead (003 Combat 14, 21; §II 14). */
export function drawDamage(out: Out, ctx: Ctx, unit: string, by: Side | null): void {
  const u = unitIn(out.s, unit)!;
  if (u.convoy) {
    // A convoy unit carries no Damage card: a critical result destroys it (RULINGS).
    out.emit({ type: 'ConvoyDestroyed', unit });
    checkVictory(out);
    return;
  }
  if (u.damageCard !== null) return destroyUnit(out, unit, by, null);
  const plan = planDraw(out.s.damageDeck, 1, ctx.rng, { reshuffle: 'when-empty' });
  if (plan.reshuffle) out.emit({ type: 'DamageDeckReshuffled', order: [...plan.reshuffle] }, HIDDEN);
  const card = plan.cards[0];
  if (card === undefined) return;
  out.emit({ type: 'DamageCardDrawn', unit, card });
  const e = out.s.catalog.damageCards.find((d) => d.id === card)!.effects;
  const edge = cardOf(out.s, unit).type;
  const effect =
    edge === 'infantry' || edge === 'crew' ? e.infantry : edge === 'aircraft' ? e.aircraft : edge === 'tank' || edge === 'vehicle' ? e.vehicle : e.artillery;
  if (effect.kind === 'explodes') destroyUnit(out, unit, by, null);
  else if (effect.kind === 'crewCasualty' && u.crew) out.emit({ type: 'CrewKilled', unit, crew: u.crew });
}

/**
 * A unit is destroyed: its cost to the destroyer; a front-line crew's fate by the Intensity of the
 * destroying hit (003 Combat 11: 1–3 unharmed, 4–6 damaged, 7+ lost); rear-line and air crews
 * always perish. A destruction with no Intensity (a second Damage card) loses the crew.
 */
export function destroyUnit(out: Out, unit: string, by: Side | null, intensity: number | null, captured = false): void {
  const s = out.s;
  const u = unitIn(s, unit)!;
  let fate: 'returned' | 'damaged' | 'captured' | 'lost' | null = null;
  let crewPoints = 0;
  if (u.crew) {
    fate = onMap(u) && intensity !== null ? (crewFate(intensity, true, MAP_EXPANSION) as 'returned' | 'damaged' | 'lost') : 'lost';
    if (captured && fate !== 'lost') fate = 'captured';
    crewPoints = by === null || fate === 'returned' || fate === 'damaged' ? 0 : victoryPoints(costOf(s, u.crew), fate === 'captured');
  }
  out.emit({ type: 'UnitDestroyed', unit, by, points: by ? costOf(s, unit) : 0, crewFate: fate, crewPoints });
  checkVictory(out);
}
