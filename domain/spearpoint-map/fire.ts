import type { Ctx } from '../kernel/engine.js';
import { attackResult, MAP_EXPANSION, needsDamageCard, netDamage } from '../frontline-general/rules.js';
import { destroyUnit, drawDamage } from './damage.js';
import { checkVictory } from './turn.js';
import { unitIn, type Attack, type State } from './model.js';
import type { Out } from './out.js';
import { cardOf, CONVOY_KILL_INTENSITY, costOf, defenseOf, firesFrom, hitNeeded, impervious, sumAttached, unitsAt, weaponAffects } from './rules.js';

/**
 * 003 §III Combat, fire on units: the attack roll and the hit (9, 14), a shot at a gun's crew
 * (4), fire on a whole space (15), bombs dropped once per flight (24).
 */

/**
 * 003 Combat 4: the crew of a front-line gun may be targeted on its own. For the rules it stands as
 * a unit in the gun's space (its card's values and Defense, the tile's bonus), with the Endurance it
 * has left this turn; the gun's own Defense is added as its bonus (ruling: the gun's shield).
 */
export function crewOut(s: State, gun: string): State {
  const g = unitIn(s, gun)!;
  const crew = g.crew!;
  const c = cardOf(s, crew);
  const wounds = Object.hasOwn(s.crewWounds, crew) ? s.crewWounds[crew]! : 0;
  const u = { ...g, id: crew, card: c.id, crew: null, endurance: c.endurance.full - wounds, damageCard: null, attached: [], defenseLoss: 0, accuracyLoss: 0 };
  return { ...s, units: { ...s.units, [crew]: u } };
}

export function directShot(out: Out, ctx: Ctx, a: Attack, w: number, target: string, bonus: number): void {
  const attacker = a.attackers[0]!;
  const needed = hitNeeded(out.s, attacker, w, target, { area: false, unspotted: false });
  const dice: [number, number] = [ctx.rng.die(10), ctx.rng.die(10)];
  const result = attackResult(dice, bonus, needed, MAP_EXPANSION);
  out.emit({ type: 'AttackRolled', attackId: a.id, target, weapon: w, dice, bonus, needed, result });
  if (result === 'miss') return;
  hit(out, ctx, a, w, target, result, null);
}

/**
 * 003 Combat 4: a shot at a gun's crew. Its damage stays with the crew for the turn (recovered at
 * the End Turn step); at 0 Endurance the crew is killed and scores, and the gun stands crewless.
 * Ruling: no Damage card is drawn for a crew inside its gun, so a 19–20 is resolved as a hit.
 */
export function crewShot(out: Out, ctx: Ctx, a: Attack, w: number, gun: string, bonus: number): void {
  const attacker = a.attackers[0]!;
  const v = crewOut(out.s, gun);
  const crew = unitIn(out.s, gun)!.crew!;
  const needed = hitNeeded(v, attacker, w, crew, { area: false, unspotted: false });
  const dice: [number, number] = [ctx.rng.die(10), ctx.rng.die(10)];
  const result = attackResult(dice, bonus, needed, MAP_EXPANSION);
  out.emit({ type: 'AttackRolled', attackId: a.id, target: crew, weapon: w, dice, bonus, needed, result });
  if (result === 'miss') return;
  const die = ctx.rng.die(10);
  const doubled = result === 'double-intensity';
  const damageIndex = cardOf(v, attacker).weapons[w]!.damageIndex;
  const defense = defenseOf(v, crew, firesFrom(v, attacker), false) + cardOf(v, gun).defense;
  const net = netDamage(die, damageIndex, defense, { doubled, bonus: sumAttached(v, unitIn(v, attacker)!, 'intensity') });
  const endurance = unitIn(v, crew)!.endurance - net;
  out.emit({ type: 'HitResolved', attackId: a.id, target: crew, intensity: [die], doubled, damageIndex, defense, net, endurance });
  if (endurance > 0) return;
  out.emit({ type: 'CrewKilled', unit: gun, crew, by: a.seat, points: costOf(out.s, crew) });
  checkVictory(out);
}

/** 003 Combat 15: one attack roll against each unit's value, one Intensity for all. */
export function areaShot(out: Out, ctx: Ctx, a: Attack, w: number, space: string, bonus: number): void {
  const s = out.s;
  const attacker = a.attackers[0]!;
  const victims = impervious(s, space) ? [] : unitsAt(s, space).filter((u) => u.side !== a.seat && weaponAffects(s, attacker, w, u.id));
  const unspotted = a.spotter === null && unitIn(s, attacker)!.at === 'rear' && s.scenario.hiddenSpotters !== a.seat;
  const dice: [number, number] = [ctx.rng.die(10), ctx.rng.die(10)];
  let intensity: number | null = null;
  for (const v of victims) {
    if (!unitIn(out.s, v.id)) continue;
    const needed = hitNeeded(out.s, attacker, w, v.id, { area: true, unspotted });
    const result = attackResult(dice, bonus, needed, MAP_EXPANSION);
    out.emit({ type: 'AttackRolled', attackId: a.id, target: v.id, weapon: w, dice, bonus, needed, result });
    if (result === 'miss') continue;
    intensity ??= ctx.rng.die(10);
    hit(out, ctx, a, w, v.id, result, intensity, true);
  }
  if (cardOf(out.s, attacker).weapons[w]?.bombs && unitIn(out.s, attacker)) markBomb(out, attacker, w);
}

/** 003 Combat 24: each bomb is dropped once per flight. */
export const markBomb = (out: Out, unit: string, weapon: number): void => out.emit({ type: 'BombDropped', unit, weapon });

/** Damage resolution of one hit (003 Combat 9c–f, 14): 18 doubles Intensity, 19–20 draws a Damage card. */
function hit(out: Out, ctx: Ctx, a: Attack, w: number, target: string, result: string, sharedIntensity: number | null, area = false): void {
  const s = out.s;
  const t = unitIn(s, target)!;
  const attacker = a.attackers[0]!;
  if (result === 'damage-card') {
    drawDamage(out, ctx, target, a.seat);
    return;
  }
  const die = sharedIntensity ?? ctx.rng.die(10);
  if (t.convoy) {
    out.emit({
      type: 'HitResolved',
      attackId: a.id,
      target,
      intensity: [die],
      doubled: false,
      damageIndex: 0,
      defense: 0,
      net: die >= CONVOY_KILL_INTENSITY ? 1 : 0,
      endurance: die >= CONVOY_KILL_INTENSITY ? 0 : 1,
    });
    if (die >= CONVOY_KILL_INTENSITY) {
      out.emit({ type: 'ConvoyDestroyed', unit: target });
      checkVictory(out);
    }
    return;
  }
  const doubled = result === 'double-intensity';
  const damageIndex = cardOf(s, attacker).weapons[w]!.damageIndex;
  const bonus = sumAttached(s, unitIn(s, attacker)!, 'intensity');
  const defense = defenseOf(s, target, firesFrom(s, attacker), area);
  const net = netDamage(die, damageIndex, defense, { doubled, bonus });
  const endurance = t.endurance - net;
  out.emit({ type: 'HitResolved', attackId: a.id, target, intensity: [die], doubled, damageIndex, defense, net, endurance });
  if (endurance <= 0) return destroyUnit(out, target, a.seat, die);
  if (needsDamageCard(cardOf(s, target), endurance, t.damageCard !== null)) drawDamage(out, ctx, target, a.seat);
}
