import { violation, type RuleViolation } from '../kernel/errors.js';
import type { Side } from '../frontline-general/data/schema.js';
import { stukaPath } from './commitment.js';
import { featureRule } from './features.js';
import { crewOut } from './fire.js';
import { isSpace, pathSpaces } from './map.js';
import { tileAt, unitIn, type State } from './model.js';
import {
  cannotAttack,
  cardOf,
  concealedByEdges,
  contested,
  firesFrom,
  impervious,
  inPath,
  inRange,
  isAircraft,
  isAreaWeapon,
  isArtillery,
  lineOfSight,
  onMap,
  role,
  roleOf,
  RULE,
  sideUnitsAt,
  spotters,
  unitsAt,
  weaponAffects,
} from './rules.js';

/**
 * 003 §III Combat, legal targets (1–8, 13, 15, 19, 23) and the declaration steps (2), with the
 * scenarios' target rules; and the attacks a seat owes: raiders fighting within a space (Movement
 * 5) and Gunter's Return's Stuka.
 */

const RULE_RAID = '003 §III Movement 5';
const RULE_GUN_CREW = '003 §III Combat 4';

const bad = (code: string, message: string, rule: string = RULE.target): RuleViolation => violation(code, message, rule);

/** Where the target is: a unit, an area attack's space, or a feature's space. */
export type Aim = { kind: 'unit'; unit: string } | { kind: 'area'; space: string } | { kind: 'feature'; space: string } | { kind: 'crew'; gun: string };
export function aimOf(target: string): Aim {
  if (target.startsWith('space:')) return { kind: 'area', space: target.slice(6) };
  if (target.startsWith('crew:')) return { kind: 'crew', gun: target.slice(5) };
  if (target.startsWith('feature:')) return { kind: 'feature', space: target.slice(8) };
  return { kind: 'unit', unit: target };
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
function declarationStepProblem(s: State, attacker: string): RuleViolation | null {
  if (s.phase !== 'declaration') return null; // opportunity fire is no declaration
  const support = isAircraft(s, attacker) || isArtillery(s, attacker);
  if (support === (s.declStep === 'support')) return null;
  return support
    ? bad('combat/support-step-over', 'Aircraft and artillery declare their targets first, before all other units', '003 §III Combat 2')
    : bad('combat/support-step', 'Aircraft and artillery targets are declared first; other units declare after both sides are Done', '003 §III Combat 2');
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
