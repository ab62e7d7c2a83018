import { planDraw } from '../kernel/deck.js';
import type { Ctx } from '../kernel/engine.js';
import { violation, type RuleViolation } from '../kernel/errors.js';
import { HIDDEN } from '../kernel/visibility.js';
import type { Side } from '../frontline-general/data/schema.js';
import { attackResult, crewFate, MAP_EXPANSION, needsDamageCard, netDamage, victoryPoints } from '../frontline-general/rules.js';
import { tileSpec } from './data/tiles.js';
import { stukaPath } from './commitment.js';
import { distance, isSpace, pathSpaces } from './map.js';
import { tileAt, unitIn, type Attack, type State } from './model.js';
import type { Out } from './out.js';
import {
  cannotAttack,
  cardOf,
  concealedByEdges,
  contested,
  CONVOY_KILL_INTENSITY,
  costOf,
  defenseOf,
  firesFrom,
  hitNeeded,
  impervious,
  inPath,
  inRange,
  isAircraft,
  isAreaWeapon,
  isArtillery,
  isFoot,
  lineOfSight,
  onMap,
  role,
  roleOf,
  RULE,
  sideUnitsAt,
  spotters,
  sumAttached,
  unitsAt,
  weaponAffects,
} from './rules.js';
import { checkVictory } from './turn.js';

/**
 * 003 §III Combat: legal targets (1–8), attack resolution (9) with the core's resolver under the
 * 003 variant (no friendly fire, 19–20 a Damage card, crews by Intensity), area attacks (15),
 * close assault (16), destroying features (20–21).
 */

const RULE_RAID = '003 §III Movement 5';
const RULE_GUN_CREW = '003 §III Combat 4';

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
const bad = (code: string, message: string, rule: string = RULE.target): RuleViolation => violation(code, message, rule);

/** Where the target is: a unit, an area attack's space, or a feature's space. */
export type Aim = { kind: 'unit'; unit: string } | { kind: 'area'; space: string } | { kind: 'feature'; space: string } | { kind: 'crew'; gun: string };
export function aimOf(target: string): Aim {
  if (target.startsWith('space:')) return { kind: 'area', space: target.slice(6) };
  if (target.startsWith('crew:')) return { kind: 'crew', gun: target.slice(5) };
  if (target.startsWith('feature:')) return { kind: 'feature', space: target.slice(8) };
  return { kind: 'unit', unit: target };
}

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

/** Why this attack may not be declared, or null (003 Combat 1–8, 13, 19, 23; scenario rules). */
export function attackProblem(s: State, seat: Side, attacker: string, target: string, weapons: readonly number[], spotter?: string): RuleViolation | null {
  const a = unitIn(s, attacker);
  if (!a || a.side !== seat) return bad('combat/not-your-unit', `${attacker} is not one of your units in play`);
  const blocked = cannotAttack(s, attacker);
  if (blocked) return blocked;
  const stepProblem = declarationStepProblem(s, attacker);
  if (stepProblem) return stepProblem;
  if (new Set(weapons).size !== weapons.length) return bad('combat/weapon-twice', 'Each weapon fires once per attack', RULE.resolve);
  const card = cardOf(s, attacker);
  for (const w of weapons) {
    if (!card.weapons[w]) return bad('combat/no-such-weapon', `${card.title} has no weapon number ${w + 1}`);
    if (a.weaponsLost.includes(w)) return bad('combat/weapon-lost', `${card.weapons[w]!.name} is out of action`);
    if (card.weapons[w]!.bombs && a.bombsUsed.includes(w)) return bad('combat/bombs-used', 'Each bomb is dropped once per flight', '003 §III Combat 24');
  }
  const aim = aimOf(target);
  const cp = s.scenario.victory.kind === 'command-post' ? s.scenario.victory.space : null;
  if (cp && stukaPath(s, attacker) && (target !== `feature:${cp}` || weapons.some((w) => !card.weapons[w]!.bombs)))
    return bad('combat/stuka-must-bomb', `The Stuka bombs the Command Post in ${cp}`, "003 §IV Gunter's Return");
  if (spotter !== undefined && (aim.kind === 'unit' || !unitIn(s, spotter)))
    return bad('combat/bad-spotter', 'A spotter serves only mortar and artillery fire on a space', '003 §III Combat 8');
  const from = firesFrom(s, attacker);
  if (from && contested(s, from) && !(aim.kind === 'unit' && unitIn(s, aim.unit)?.at === from))
    return bad('combat/raid-must-fight', `Units fighting within ${from} target the enemy there`, RULE_RAID);
  const fromRear = a.at === 'rear';
  const night = s.scenario.night === true && s.turn % 2 === 1;
  if (fromRear && s.scenario.night && isArtillery(s, attacker)) {
    if (aim.kind !== 'unit' || unitIn(s, aim.unit)?.at !== 'rear')
      return bad('combat/night-artillery', 'Artillery may not fire on the front line in this scenario', '003 §IV Moonlight on Metal');
    if (night) return bad('combat/night-artillery', 'Counter-battery fire only on even turns', '003 §IV Moonlight on Metal');
  }
  if (aim.kind === 'feature' || aim.kind === 'area') {
    if (!isSpace(aim.space)) return bad('combat/no-such-space', `${aim.space} is not a map space`);
    if (weapons.length !== 1) return bad('combat/weapon-count', 'Area and feature attacks use one weapon');
    const w = weapons[0]!;
    if (aim.kind === 'area' && !isAreaWeapon(s, attacker, w))
      return bad('combat/not-area-weapon', `${card.weapons[w]!.name} does not fire on a whole space`, '003 §III Combat 15');
    if (aim.kind === 'feature') {
      if (!featureRule(s, attacker, w, aim.space))
        return bad('combat/feature-not-destructible', `That weapon cannot destroy the feature in ${aim.space}`, RULE.destroy);
      if (s.scenario.noBuildingTargets === seat && tileAt(s, aim.space)?.kind === 'building')
        return bad('combat/no-building-targets', 'The US may not target village buildings here', "003 §IV Gunter's Return");
    }
    if (aim.kind === 'area' && sideUnitsAt(s, aim.space, seat).length > 0)
      return bad('combat/friendly-in-space', 'Area fire may not fall on a space holding your own units', '003 §III Combat 15, 19');
    if (aim.kind === 'area' && unitsAt(s, aim.space).filter((u) => u.side !== seat).length === 0)
      return bad('combat/empty-space', 'No enemy unit is in that space', RULE.target);
    return reachProblem(s, seat, attacker, w, aim.space, spotter);
  }
  if (aim.kind === 'crew') {
    const g = unitIn(s, aim.gun);
    // Ruling: the Pantherturm I's crew sits inside the armoured turret (003 §II 11) and is not a target of its own.
    if (!g || g.side === seat || !onMap(g) || cardOf(s, aim.gun).type !== 'gun' || g.crew === null || g.card === 'de-pantherturm-i')
      return bad('combat/no-gun-crew', `${aim.gun} is not a manned enemy front-line gun`, RULE_GUN_CREW);
    return attackProblem(crewOut(s, aim.gun), seat, attacker, g.crew, weapons, spotter);
  }
  const t = unitIn(s, aim.unit);
  if (!t || t.side === seat) return bad('combat/target-not-enemy', `${aim.unit} is not an enemy unit in play`);
  if (weapons.some((w) => !weaponAffects(s, attacker, w, aim.unit)))
    return bad(
      'combat/weapon-cannot-affect',
      'A chosen weapon cannot affect that target (no attack value, or bullets against Defense 2+)',
      '003 §III Combat 1, 13',
    );
  if (weapons.some((w) => isAreaWeapon(s, attacker, w) && onMap(t)))
    return bad('combat/area-weapon', 'Mortars, artillery and bombs fire on the target space (space:…)', '003 §III Combat 15');
  // Targets off the map: aircraft and the rear line.
  if (t.at === 'air') {
    if (isAircraft(s, attacker))
      return pathsCross(s, attacker, aim.unit) ? null : bad('combat/not-on-path', 'That aircraft does not fly across your flight path', '003 §III Combat 5');
    if (fromRear)
      return weapons.every((w) => w === 0) || t.path === 'rear-line'
        ? null
        : bad('combat/secondary-at-air', 'Secondary rear-line weapons fire only at aircraft over your rear line', '003 §III Combat 6');
    return t.path !== 'rear-line' ? null : bad('combat/aircraft-over-rear', 'Front-line units reach only aircraft over the map', '003 §III Combat 6');
  }
  if (t.at === 'rear') {
    if (isAircraft(s, attacker))
      return a.path === 'rear-line' ? null : bad('combat/not-on-path', 'Only a flight path over the enemy rear line reaches it', '003 §III Commitment 3');
    if (fromRear && isArtillery(s, attacker) && weapons.every((w) => w === 0)) return null;
    return bad('combat/out-of-reach', 'Only rear-line artillery and aircraft reach the enemy rear line', '003 §III Combat 7');
  }
  // A unit on the map.
  if (
    t.card === 'de-pantherturm-i' &&
    !weapons.every((w) => (role(s, attacker) === 'tank' && w === 0 && roleOf(s, attacker).calibre >= 75) || isAreaWeapon(s, attacker, w))
  )
    return bad('combat/pantherturm', 'Only 75mm+ tank guns, artillery, mortars and bombs harm the Pantherturm I', '003 §II 11');
  if (impervious(s, t.at) && from !== t.at) return bad('combat/impervious', 'Units inside that feature cannot be attacked from outside', '003 §II 1, 8, 10');
  if (Object.hasOwn(s.smoke, t.at)) return bad('combat/smoke', 'Units in smoke may not be targeted', '003 §III Combat 23');
  if (isAircraft(s, attacker))
    return inPath(s, attacker, t.at) ? null : bad('combat/not-on-path', 'The target is not under your flight path', '003 §III Combat 5');
  if (fromRear) return bad('combat/area-weapon', 'Rear-line artillery fires on a space (space:…)', '003 §III Combat 8');
  if (from !== t.at && concealedByEdges(s, from!, t.at))
    return bad('combat/concealed', `${t.at}'s tile conceals its occupants from ${from} (a red or green edge faces you)`, '003 §III Combat 8');
  if (from !== t.at && sideUnitsAt(s, t.at, seat).length > 0 && role(s, attacker) !== 'sniper')
    return bad('combat/friendly-in-space', 'Only a Sniper may fire into a space holding your own units', '003 §III Combat 19');
  if (from === t.at && unitIn(s, attacker)!.crew && cardOf(s, attacker).type === 'gun')
    return bad('combat/gun-raided', 'A raided gun may not fire at the raiders; its crew defends itself', '003 §III Movement 6');
  for (const w of weapons) if (!inRange(s, attacker, w, t.at)) return bad('combat/out-of-range', `${t.at} is out of range`, '003 §III Combat 7');
  if (!lineOfSight(s, from!, t.at, seat)) return bad('combat/no-line-of-sight', `No line of sight from ${from} to ${t.at}`, '003 §III Combat 8');
  return null;
}

const pathsCross = (s: State, a: string, b: string): boolean => {
  const [p, q] = [unitIn(s, a)!.path ?? '', unitIn(s, b)!.path ?? ''];
  return p === q || pathSpaces(p).some((x) => pathSpaces(q).includes(x));
};

/** Range, line of sight, spotting and flight paths for fire on a space (003 Combat 7, 8; scenarios). */
function reachProblem(s: State, seat: Side, attacker: string, weapon: number, space: string, spotter?: string): RuleViolation | null {
  const a = unitIn(s, attacker)!;
  if (Object.hasOwn(s.smoke, space) && !isAircraft(s, attacker)) return bad('combat/smoke', 'Smoke hides that space', '003 §III Combat 23');
  if (isAircraft(s, attacker))
    return inPath(s, attacker, space) ? null : bad('combat/not-on-path', 'That space is not under your flight path', '003 §III Combat 5');
  if (a.at === 'rear') {
    if (s.scenario.hiddenSpotters === seat)
      return spotter === undefined ? null : bad('combat/bad-spotter', 'Hidden spotters need no named spotter', '003 §IV The Liri Valley Road');
    const unspotted = s.scenario.unspotted?.side === seat && s.scenario.unspotted && !Object.values(s.units).some((u) => u.side === seat && onMap(u));
    if (unspotted && spotter === undefined) return null;
    return spotterProblem(s, seat, space, spotter);
  }
  const from = a.at;
  if (!inRange(s, attacker, weapon, space)) return bad('combat/out-of-range', `${space} is out of range`, '003 §III Combat 7');
  const mortar = role(s, attacker) === 'mortar' && weapon === 0;
  if (mortar && s.scenario.night && s.turn % 2 === 1) return bad('combat/night-mortar', 'Mortars fire only on even turns', '003 §IV Moonlight on Metal');
  if (lineOfSight(s, from, space, seat, { mortar }) && spotter === undefined) return null;
  if (!mortar) return bad('combat/no-line-of-sight', `No line of sight from ${from} to ${space}`, '003 §III Combat 8');
  return spotterProblem(s, seat, space, spotter);
}

function spotterProblem(s: State, seat: Side, space: string, spotter?: string): RuleViolation | null {
  if (spotter === undefined) return bad('combat/needs-spotter', 'Name a friendly infantry unit that can see the space as spotter', '003 §III Combat 8');
  if (!spotters(s, seat, space).includes(spotter))
    return bad('combat/bad-spotter', `${spotter} cannot spot ${space} (your infantry, in line of sight, not attacking)`, '003 §III Combat 8');
  return null;
}

/** 003 Turn Sequence, Combat 2: aircraft and artillery declare in the first step, every other unit in the second. */
export function declarationStepProblem(s: State, attacker: string): RuleViolation | null {
  if (s.phase !== 'declaration') return null; // opportunity fire is no declaration
  const support = isAircraft(s, attacker) || isArtillery(s, attacker);
  if (support === (s.declStep === 'support')) return null;
  return support
    ? bad('combat/support-step-over', 'Aircraft and artillery declare their targets first, before all other units', '003 §III Combat 2')
    : bad('combat/support-step', 'Aircraft and artillery targets are declared first; other units declare after both sides are Done', '003 §III Combat 2');
}

/** Why these units may not close assault that target, or null (003 Combat 16). */
export function assaultProblem(s: State, seat: Side, attackers: readonly string[], target: string): RuleViolation | null {
  const t = unitIn(s, target);
  if (!t || t.side === seat || !onMap(t)) return bad('combat/target-not-enemy', `${target} is not an enemy unit on the map`, RULE.assault);
  const tc = cardOf(s, target);
  if (!(tc.type === 'tank' || tc.type === 'vehicle' || (tc.type === 'gun' && t.crew !== null)) || t.convoy)
    return bad('combat/assault-target', 'Close assault a tank or a crewed front-line gun', RULE.assault);
  if (new Set(attackers).size !== attackers.length || attackers.length < 3)
    return bad('combat/assault-size', 'Three or more different infantry units close assault', RULE.assault);
  if (s.phase === 'declaration' && s.declStep === 'support')
    return bad('combat/support-step', 'Close assaults are declared with the other targets, after aircraft and artillery', RULE.assault);
  for (const x of attackers) {
    const blocked = cannotAttack(s, x);
    const u = unitIn(s, x);
    if (!u || u.side !== seat) return bad('combat/not-your-unit', `${x} is not one of your units in play`, RULE.assault);
    if (blocked) return blocked;
    if (cardOf(s, x).type !== 'infantry' || !onMap(u) || distance(u.at, t.at) !== 1)
      return bad('combat/assault-adjacent', 'Each assaulting infantry must stand next to the target (not diagonally)', RULE.assault);
    if (!cardOf(s, x).weapons.some((w, i) => w.attack.vehicle !== undefined && !u.weaponsLost.includes(i)))
      return bad('combat/assault-means', `${cardOf(s, x).title} has no weapon with a value against vehicles`, RULE.assault);
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

// ---------------------------------------------------------------- resolution

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

function directShot(out: Out, ctx: Ctx, a: Attack, w: number, target: string, bonus: number): void {
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
function crewShot(out: Out, ctx: Ctx, a: Attack, w: number, gun: string, bonus: number): void {
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
function areaShot(out: Out, ctx: Ctx, a: Attack, w: number, space: string, bonus: number): void {
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
const markBomb = (out: Out, unit: string, weapon: number): void => out.emit({ type: 'BombDropped', unit, weapon });

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

/** 003 Combat 20–21: destroying a feature; infantry inside a destroyed feature are damaged. */
function attackFeature(out: Out, ctx: Ctx, a: Attack, w: number, space: string, bonus: number): void {
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

/** 003 Combat 16: one roll at the group's best value; 1d10 per assaulting unit, summed, against Defense. */
function closeAssault(out: Out, ctx: Ctx, a: Attack, bonus: number): void {
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

/**
 * 003 Movement 5: units fighting within a space must target each other each Combat Phase. Returns
 * one of the seat's units there that could still declare an attack on an enemy in its space.
 */
export function raiderToFire(s: State, seat: Side): string | null {
  for (const u of Object.values(s.units)) {
    if (u.side !== seat || !onMap(u) || !contested(s, u.at) || cannotAttack(s, u.id)) continue;
    const foes = sideUnitsAt(s, u.at, seat === 'us' ? 'de' : 'us');
    if (foes.some((t) => cardOf(s, u.id).weapons.some((_, w) => attackProblem(s, seat, u.id, t.id, [w]) === null))) return u.id;
  }
  return null;
}

/** Gunter's Return: the turn-6 Stuka that can still bomb the Command Post and has not declared it. */
export function stukaToBomb(s: State, seat: Side): string | null {
  const v = s.scenario.victory;
  if (v.kind !== 'command-post') return null;
  for (const u of Object.values(s.units)) {
    if (u.side !== seat || !stukaPath(s, u.id)) continue;
    const bomb = cardOf(s, u.id).weapons.findIndex((w) => w.bombs);
    if (bomb >= 0 && attackProblem(s, seat, u.id, `feature:${v.space}`, [bomb]) === null) return u.id;
  }
  return null;
}
