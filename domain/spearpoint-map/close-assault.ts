import type { Ctx } from '../kernel/engine.js';
import { violation, type RuleViolation } from '../kernel/errors.js';
import type { Side } from '../frontline-general/data/schema.js';
import { attackResult, MAP_EXPANSION, needsDamageCard, netDamage } from '../frontline-general/rules.js';
import { destroyUnit, drawDamage } from './damage.js';
import { distance } from './map.js';
import { unitIn, type Attack, type State } from './model.js';
import type { Out } from './out.js';
import { cannotAttack, cardOf, defenseOf, onMap, RULE } from './rules.js';

/** 003 §III Combat 16: close assault by three or more infantry on a tank or a crewed gun. */

const bad = (code: string, message: string): RuleViolation => violation(code, message, RULE.assault);

/** Why these units may not close assault that target, or null (003 Combat 16). */
export function assaultProblem(s: State, seat: Side, attackers: readonly string[], target: string): RuleViolation | null {
  const t = unitIn(s, target);
  if (!t || t.side === seat || !onMap(t)) return bad('combat/target-not-enemy', `${target} is not an enemy unit on the map`);
  const tc = cardOf(s, target);
  if (!(tc.type === 'tank' || tc.type === 'vehicle' || (tc.type === 'gun' && t.crew !== null)) || t.convoy)
    return bad('combat/assault-target', 'Close assault a tank or a crewed front-line gun');
  if (new Set(attackers).size !== attackers.length || attackers.length < 3)
    return bad('combat/assault-size', 'Three or more different infantry units close assault');
  if (s.phase === 'declaration' && s.declStep === 'support')
    return bad('combat/support-step', 'Close assaults are declared with the other targets, after aircraft and artillery');
  for (const x of attackers) {
    const blocked = cannotAttack(s, x);
    const u = unitIn(s, x);
    if (!u || u.side !== seat) return bad('combat/not-your-unit', `${x} is not one of your units in play`);
    if (blocked) return blocked;
    if (cardOf(s, x).type !== 'infantry' || !onMap(u) || distance(u.at, t.at) !== 1)
      return bad('combat/assault-adjacent', 'Each assaulting infantry must stand next to the target (not diagonally)');
    if (!cardOf(s, x).weapons.some((w, i) => w.attack.vehicle !== undefined && !u.weaponsLost.includes(i)))
      return bad('combat/assault-means', `${cardOf(s, x).title} has no weapon with a value against vehicles`);
  }
  return null;
}

/** The best (lowest) attack value against vehicles of the group (003 Combat 16 example: a 9). */
export const assaultValue = (s: State, attackers: readonly string[]): number =>
  Math.min(
    ...attackers.flatMap((x) =>
      cardOf(s, x).weapons.flatMap((w, i) => (w.attack.vehicle !== undefined && !unitIn(s, x)!.weaponsLost.includes(i) ? [w.attack.vehicle] : [])),
    ),
  );

/** 003 Combat 16: one roll at the group's best value; 1d10 per assaulting unit, summed, against Defense. */
export function closeAssault(out: Out, ctx: Ctx, a: Attack, bonus: number): void {
  const s = out.s;
  const live = a.attackers.filter((x) => unitIn(s, x));
  const needed = assaultValue(s, live);
  const dice: [number, number] = [ctx.rng.die(10), ctx.rng.die(10)];
  const result = attackResult(dice, bonus, needed, MAP_EXPANSION);
  out.emit({ type: 'AttackRolled', attackId: a.id, target: a.target, weapon: -1, dice, bonus, needed, result });
  if (result === 'miss') return;
  if (result === 'damage-card') return drawDamage(out, ctx, a.target, a.seat);
  const rolls = live.map(() => ctx.rng.die(10));
  const t = unitIn(s, a.target)!;
  const total = rolls.reduce((x, y) => x + y, 0);
  const doubled = result === 'double-intensity';
  const defense = defenseOf(s, a.target, null, false);
  const net = netDamage(total, 0, defense, { doubled });
  const endurance = t.endurance - net;
  out.emit({ type: 'HitResolved', attackId: a.id, target: a.target, intensity: rolls, doubled, damageIndex: 0, defense, net, endurance });
  if (endurance <= 0) return destroyUnit(out, a.target, a.seat, Math.max(...rolls), true);
  if (needsDamageCard(cardOf(s, a.target), endurance, t.damageCard !== null)) drawDamage(out, ctx, a.target, a.seat);
}
