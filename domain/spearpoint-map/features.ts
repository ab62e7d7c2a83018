import type { Ctx } from '../kernel/engine.js';
import { crewFate, MAP_EXPANSION } from '../frontline-general/rules.js';
import { destroyUnit, drawDamage } from './damage.js';
import { tileSpec } from './data/tiles.js';
import { markBomb } from './fire.js';
import { distance } from './map.js';
import { tileAt, unitIn, type Attack, type State } from './model.js';
import type { Out } from './out.js';
import { cardOf, firesFrom, isAircraft, isArtillery, isFoot, role, roleOf, unitsAt } from './rules.js';

/** 003 §III Combat 20–21: who may destroy a feature and how, and what happens to those inside. */

/** Destroying features (003 Combat 20 table): who may, from where, the bonus and the Intensity needed. */
export function featureRule(s: State, attacker: string, weapon: number, space: string): { auto: boolean; bonus: number; intensity: number } | null {
  const t = tileAt(s, space);
  if (!t || !t.intact) return null;
  const spec = tileSpec(t.kind);
  if (spec.ruined === null || t.kind === 'pantherturm') return null;
  const u = unitIn(s, attacker)!;
  const w = cardOf(s, attacker).weapons[weapon];
  if (!w || w.attack.vehicle === undefined) return null;
  const r = role(s, attacker);
  const from = firesFrom(s, attacker);
  if (r === 'tank' && weapon === 0 && from && unitIn(s, attacker)!.crew !== null) {
    if (roleOf(s, attacker).calibre < spec.minCalibre) return null;
    const d = distance(from, space);
    return d <= 2 ? { auto: true, bonus: 0, intensity: 5 } : { auto: false, bonus: 4, intensity: 6 };
  }
  if (r === 'mortar' && weapon === 0) return { auto: false, bonus: 3, intensity: 6 };
  if (u.at === 'rear' && isArtillery(s, attacker) && weapon === 0) return { auto: false, bonus: 2, intensity: 4 };
  if (isAircraft(s, attacker) && w.bombs) return { auto: false, bonus: 3, intensity: 4 };
  return null;
}

/** 003 Combat 20–21: destroying a feature; infantry inside a destroyed feature are damaged. */
export function attackFeature(out: Out, ctx: Ctx, a: Attack, w: number, space: string, bonus: number): void {
  const attacker = a.attackers[0]!;
  const rule = featureRule(out.s, attacker, w, space);
  if (!rule) {
    out.emit({ type: 'FeatureAttacked', attackId: a.id, space, dice: null, needed: 0, intensity: null, destroyed: false });
    return;
  }
  let dice: [number, number] | null = null;
  const needed = (cardOf(out.s, attacker).weapons[w]!.attack.vehicle ?? 99) - rule.bonus + unitIn(out.s, attacker)!.accuracyLoss;
  if (!rule.auto) {
    dice = [ctx.rng.die(10), ctx.rng.die(10)];
    if (dice[0] + dice[1] + bonus < needed) {
      out.emit({ type: 'FeatureAttacked', attackId: a.id, space, dice, needed, intensity: null, destroyed: false });
      return;
    }
  }
  const intensity = ctx.rng.die(10);
  const destroyed = intensity >= rule.intensity;
  out.emit({ type: 'FeatureAttacked', attackId: a.id, space, dice, needed: rule.auto ? 0 : needed, intensity, destroyed });
  if (cardOf(out.s, attacker).weapons[w]?.bombs) markBomb(out, attacker, w);
  if (!destroyed) return;
  const panzernest = out.s.tiles[space]?.kind === 'panzernest';
  out.emit({ type: 'TileDestroyed', space });
  for (const u of unitsAt(out.s, space)) {
    if (!isFoot(out.s, u.id) || !unitIn(out.s, u.id)) continue;
    // 003 §II 10: the Panzernest's MG team fares by the crew-survival rules on the destroying Intensity.
    if (panzernest) {
      const fate = crewFate(intensity, true, MAP_EXPANSION);
      if (fate === 'lost') destroyUnit(out, u.id, a.seat, null);
      else if (fate === 'damaged') drawDamage(out, ctx, u.id, a.seat);
    } else drawDamage(out, ctx, u.id, a.seat);
  }
}
