import { violation, type RuleViolation } from '../kernel/errors.js';
import { indexCatalog } from '../frontline-general/data/catalog.js';
import type { CommandCard, CommandEffectKind, UnitCard } from '../frontline-general/data/schema.js';
import {
  CARD_GAME,
  crewFate as coreCrewFate,
  isImmobile,
  isMobileArtillery,
  specialRoll as coreSpecialRoll,
  targetIcon,
  weaponCanAffect,
} from '../frontline-general/rules.js';

export {
  damageEdge,
  initiativeWinner,
  isGroundType,
  isMobileArtillery,
  needsDamageCard,
  netDamage,
  recoveredEndurance,
  victoryPoints,
  weaponCanAffect,
} from '../frontline-general/rules.js';

/** The card game plays the core's combat rules under the 001 variant. */
export type SpecialRoll = 'friendly-fire' | 'double-intensity' | 'destroyed-outright' | null;
/** Special attack rolls on the natural 2d10 sum: 2-3 friendly fire, 18 doubles intensity, 19-20 destroys outright. */
export const specialRoll = (naturalSum: number): SpecialRoll => coreSpecialRoll(naturalSum, CARD_GAME) as SpecialRoll;
export type CrewFate = 'returned' | 'captured' | 'lost';
/** A destroyed unit's crew: base intensity 1-3 survives, 4-6 is captured if the enemy has a ground unit in play, 7+ is lost. */
export const crewFate = (baseIntensity: number, enemyHasGround: boolean): CrewFate => coreCrewFate(baseIntensity, enemyHasGround, CARD_GAME) as CrewFate;
import type { ActiveEffect, Attack, Line, State, UnitInPlay } from './model.js';
import { atLeast, cardEntry, unitIn, other } from './model.js';

/**
 * Spearpoint 1943 rules as small pure functions: each answers one question the rulebook
 * (001) asks, so each can be tested on its own. Sections cited are 001's headings.
 */
export const RULE = {
  setup: '001 Two-Player Standard Game Setup',
  situation: '001 Two-Player Situation Game Setup',
  commitment: '001 Commitment Phase',
  command: '001 Gameplay: Command cards',
  target: '001 Combat Phase: Target Declaration',
  initiative: '001 Combat Phase: Initiative',
  attack: '001 Combat Phase: Attack',
  damage: '001 Combat Phase: Damage Resolution',
  draw: '001 Draw Phase',
  victory: '001 Victory Points; Winning the Game',
} as const;

export const HAND_LIMIT_UNITS = 7;
export const HAND_LIMIT_COMMANDS = 5;
export const STARTING_HAND = 4;
export const COMMANDS_DEALT = 3;
export const DRAWS_PER_TURN = 3;

/**
 * Attacked with the bonus of 2 (001 Combat Phase: Attack, "Artillery Units / Guns ... due to
 * immobility"). From rules version 3 every artillery unit and gun, mobile artillery such as the
 * M7 Priest included: the rule names unit types and gives immobility as its reason, and the
 * Priest carries the artillery icon. Version 2 left mobile artillery out.
 */
export const artilleryBonusApplies = (s: State, card: UnitCard): boolean =>
  atLeast(s, 3) ? card.type === 'artillery' || card.type === 'gun' : isImmobile(card);
/** The line a unit goes to when committed, for cards with a fixed line. */
export function commitLine(card: UnitCard, chosen?: 'front' | 'rear'): Line | null {
  if (card.line === 'none') return 'air';
  if (card.line === 'either') return chosen ?? null;
  return card.line;
}

/** Attacking from one line: front-line units reach the enemy front and aircraft; rear-line units also the enemy rear; aircraft anything. */
export function lineAllows(attacker: Line, target: Line): boolean {
  if (attacker === 'air') return true;
  if (attacker === 'front') return target === 'front' || target === 'air';
  return true;
}

export const cardOf = (s: State, instance: string): UnitCard => indexCatalog(s.catalog).unit(cardEntry(s, instance)!.card);
export const commandOf = (s: State, card: string): CommandCard => indexCatalog(s.catalog).command(card);
export const costOf = (s: State, instance: string): number => cardOf(s, instance).cost;

export const unitEffects = (s: State, unit: string) => s.effects.filter((e) => e.unit === unit);
const sideEffects = (s: State, seat: string) => s.effects.filter((e) => e.unit === null && e.seat === seat);
/** The summed amount of the effects of one kind (identical cards never stack, different titles do). */
function amountOf(effects: readonly ActiveEffect[], kind: CommandEffectKind): number {
  let n = 0;
  for (const e of effects) if (e.effect.kind === kind && 'amount' in e.effect) n += e.effect.amount;
  return n;
}

/** A unit that needs a crew and has none stands idle. */
export function isCrewed(s: State, u: UnitInPlay): boolean {
  return cardOf(s, u.id).crew === 'none' || u.crew !== null;
}

/** Why this unit may not declare any attack this turn, or null. */
export function cannotAttack(s: State, unit: string): RuleViolation | null {
  const u = unitIn(s, unit);
  if (!u) return violation('combat/unit-not-in-play', `${unit} is not in the battle area`, RULE.target);
  const card = cardOf(s, unit);
  if (card.weapons.length === 0) return violation('combat/no-weapons', `${card.title} has no weapons`, RULE.target);
  if (!isCrewed(s, u)) return violation('combat/idle', `${card.title} has no crew and stands idle`, RULE.commitment);
  if (u.shakenUntil >= s.turn) return violation('combat/shaken', `${card.title} is shaken and cannot attack`, RULE.damage);
  if (unitEffects(s, unit).some((e) => e.effect.kind === 'sabotage'))
    return violation('combat/sabotaged', `${card.title} was sabotaged and cannot attack this turn`, RULE.command);
  return null;
}

/** Mobile artillery on the rear line fires only its first (long range) weapon at land targets. */
export const rearArtilleryLimit = (s: State, attacker: string, weapon: number, targetLine: Line): boolean =>
  isMobileArtillery(cardOf(s, attacker)) && unitIn(s, attacker)?.line === 'rear' && targetLine !== 'air' && weapon !== 0;

/** Why this weapon of this attacker may not be fired at this target, or null (001 Combat Phase: Target Declaration). */
export function weaponProblem(s: State, attacker: string, weapon: number, target: string): RuleViolation | null {
  const a = unitIn(s, attacker)!;
  const t = unitIn(s, target);
  const ac = cardOf(s, attacker);
  const w = ac.weapons[weapon];
  if (!w) return violation('combat/no-such-weapon', `${ac.title} has no weapon number ${weapon + 1}`, RULE.target);
  if (!t) return violation('combat/target-not-in-play', `${target} is not in the battle area`, RULE.target);
  const tc = cardOf(s, target);
  if (a.weaponsLost.includes(weapon)) return violation('combat/weapon-lost', `${ac.title}'s ${w.name} is out of action`, RULE.damage);
  if (!weaponCanAffect(w, tc)) {
    return w.bullets && tc.defense >= 2 && w.attack[targetIcon(tc.type)] !== undefined
      ? violation('combat/bullets-vs-armor', `${w.name} fires bullets, which cannot affect ${tc.title} (Defense ${tc.defense})`, RULE.target)
      : violation('combat/weapon-cannot-affect', `${w.name} has no attack value against ${targetIcon(tc.type)} targets like ${tc.title}`, RULE.target);
  }
  if (w.bombs && a.bombsUsed) return violation('combat/bombs-used', `${ac.title} has already used its bombs this flight`, RULE.target);
  if (rearArtilleryLimit(s, attacker, weapon, t.line)) {
    return violation('combat/mobile-artillery-rear', `${ac.title} on the rear line may only fire its first weapon at land targets`, RULE.target);
  }
  return null;
}

/** Why this unit may not target that one with these weapons, or null. */
export function targetProblem(s: State, attacker: string, target: string, weapons: readonly number[]): RuleViolation | null {
  const blocked = cannotAttack(s, attacker);
  if (blocked) return blocked;
  const a = unitIn(s, attacker)!;
  const t = unitIn(s, target);
  if (!t) return violation('combat/target-not-in-play', `${target} is not in the battle area`, RULE.target);
  if (t.controller === a.controller) return violation('combat/target-friendly', 'You may only target enemy units', RULE.target);
  if (!lineAllows(a.line, t.line)) return violation('combat/line-restriction', `A ${a.line}-line unit cannot reach the enemy ${t.line} line`, RULE.target);
  if (weapons.length === 0 || weapons.length > 2) return violation('combat/weapon-count', 'An attack uses one or two weapons', RULE.target);
  if (new Set(weapons).size !== weapons.length) return violation('combat/weapon-twice', 'Each weapon fires once per attack', RULE.target);
  for (const w of weapons) {
    const p = weaponProblem(s, attacker, w, target);
    if (p) return p;
  }
  return null;
}

export const isLegalTarget = (s: State, attacker: string, weapons: readonly number[], target: string): boolean =>
  targetProblem(s, attacker, target, weapons) === null;

/** Weapon positions of the attacker that could fire at the target. */
export function legalWeapons(s: State, attacker: string, target: string): number[] {
  if (cannotAttack(s, attacker)) return [];
  return cardOf(s, attacker)
    .weapons.map((_, i) => i)
    .filter((i) => targetProblem(s, attacker, target, [i]) === null);
}

/** The best (lowest) attack value against vehicles among a unit's working weapons, for close assaults. */
export function closeAssaultValue(s: State, unit: string): number | null {
  const u = unitIn(s, unit)!;
  const vals = cardOf(s, unit)
    .weapons.map((w, i) => (u.weaponsLost.includes(i) ? undefined : w.attack.vehicle))
    .filter((v): v is number => v !== undefined);
  return vals.length ? Math.min(...vals) : null;
}

/** An armored unit infantry can reach with improvised means: one attacked as a vehicle, on the front line. */
export function closeAssaultTarget(s: State, unit: string): boolean {
  const u = unitIn(s, unit);
  return u !== undefined && u.line === 'front' && targetIcon(cardOf(s, unit).type) === 'vehicle';
}

/** The members of a close assault still able to take part (in play, crewed, not shaken). */
export const assaultParticipants = (s: State, a: Attack): string[] => a.attackers.filter((u) => unitIn(s, u) && cannotAttack(s, u) === null);

/** Why this unit may not join a close assault on that target, or null. */
export function closeAssaultProblem(s: State, attacker: string, target: string): RuleViolation | null {
  const blocked = cannotAttack(s, attacker);
  if (blocked) return blocked;
  const a = unitIn(s, attacker)!;
  const t = unitIn(s, target);
  if (cardOf(s, attacker).type !== 'infantry' || a.line !== 'front')
    return violation('combat/close-assault-infantry', 'Only front-line infantry may close assault', RULE.target);
  if (!t || t.controller === a.controller) return violation('combat/target-friendly', 'Close assault an enemy unit', RULE.target);
  if (!closeAssaultTarget(s, target))
    return violation('combat/close-assault-target', 'Close assaults are made against armored front-line units (tanks, vehicles, guns, artillery)', RULE.target);
  if (closeAssaultValue(s, attacker) === null)
    return violation('combat/close-assault-means', `${cardOf(s, attacker).title} has no weapon with a value against vehicles`, RULE.target);
  return null;
}

export const MIN_CLOSE_ASSAULT = 3;

/**
 * The 2d10 sum needed: the printed value for the target's icon, 2 easier against artillery and
 * guns (artilleryBonusApplies), easier by the attacker's accuracy cards, harder by its accuracy damage
 * and by the target's concealment and its side's smoke (front-line units of the printed types).
 */
export function hitThreshold(
  s: State,
  attacker: string,
  weapon: number | 'close-assault',
  target: string,
  assaultGroup: readonly string[] = [attacker],
): number {
  const tc = cardOf(s, target);
  const t = unitIn(s, target)!;
  const base =
    weapon === 'close-assault'
      ? Math.min(...assaultGroup.map((u) => closeAssaultValue(s, u) ?? 20))
      : (cardOf(s, attacker).weapons[weapon]!.attack[targetIcon(tc.type)] ?? 99);
  const immobileBonus = artilleryBonusApplies(s, tc) ? 2 : 0;
  const accuracy = amountOf(unitEffects(s, attacker), 'accuracy');
  const aimLoss = unitIn(s, attacker)?.accuracyLoss ?? 0;
  const concealment = amountOf(unitEffects(s, target), 'concealment');
  const smoke =
    t.line === 'front'
      ? amountOf(
          sideEffects(s, t.controller).filter((e) => commandOf(s, e.card).appliesTo.includes(tc.type as never)),
          'smoke',
        )
      : 0;
  return base - immobileBonus - accuracy + aimLoss + concealment + smoke;
}

/** Defense after cards and damage (the bullets rule uses the printed Defense instead). */
export function effectiveDefense(s: State, unit: string): number {
  const bonus = amountOf(unitEffects(s, unit), 'defense');
  return Math.max(0, cardOf(s, unit).defense + bonus - (unitIn(s, unit)?.defenseLoss ?? 0));
}

/**
 * Why a Damage card may not kill the crew of this unit, or null (rules version 2 let it). 001
 * Damage Resolution keeps a crew out of harm unless the hit destroys the unit it crews, and a
 * Damage card is only drawn for a unit the hit left standing: from version 3 such an effect is
 * refused, whatever a club's catalog prints.
 */
export function crewProtected(s: State, unit: string): RuleViolation | null {
  if (!atLeast(s, 3) || !unitIn(s, unit)?.crew) return null;
  return violation('damage/crew-protected', 'A crew is harmed only when the hit destroys the unit it crews; this Damage effect does not apply', RULE.damage);
}

export const landUnits = (s: State, seat: string): UnitInPlay[] => Object.values(s.inPlay).filter((u) => u.controller === seat && u.line !== 'air');
export const hasGroundUnit = (s: State, seat: string): boolean => landUnits(s, seat).length > 0;
/** Capturing needs one of your infantry units on the front line. */
export const hasFrontInfantry = (s: State, seat: string): boolean => landUnits(s, seat).some((u) => u.line === 'front' && cardOf(s, u.id).type === 'infantry');

/** Overrun: a seat with a land unit in play while the enemy has none. */
export const unopposed = (s: State, seat: string): boolean => landUnits(s, seat).length > 0 && landUnits(s, other(seat)).length === 0;

/** Reserves deck points, and why a list is not a legal deck for a side. */
export function deckProblems(catalogUnits: readonly UnitCard[], side: string, cards: readonly string[], min: number, max: number): string[] {
  const byId = new Map(catalogUnits.map((u) => [u.id, u]));
  const problems: string[] = [];
  let total = 0;
  cards.forEach((c, i) => {
    const u = byId.get(c);
    if (!u) problems.push(`card ${i + 1} (${c}) is not in the catalog`);
    else if (u.side !== side) problems.push(`card ${i + 1} (${c}) belongs to the ${u.side} side`);
    else total += u.cost;
  });
  if (problems.length === 0 && (total < min || total > max)) problems.push(`the deck totals ${total} points; it must be ${min}-${max}`);
  const units = cards.filter((c) => byId.get(c)?.type !== 'crew').length;
  if (problems.length === 0 && units === 0) problems.push('the deck needs at least one unit that is not a crew');
  return problems;
}

/** Shots an attack fires, in order: each weapon rolls its rate of fire (plus Fire Mission-style bonuses); a close assault rolls once. */
export function shotsOf(s: State, attack: Attack): number[] {
  if (attack.closeAssault) return [-1];
  const extra = amountOf(unitEffects(s, attack.attackers[0]!), 'rateOfFire');
  const card = cardOf(s, attack.attackers[0]!);
  return attack.weapons.flatMap((w) => Array.from({ length: card.weapons[w]!.rateOfFire + extra }, () => w));
}

/** Intensity bonus from the attacker's cards. */
export const intensityBonus = (s: State, attacker: string): number => amountOf(unitEffects(s, attacker), 'intensity');

export const initiativeModifier = (s: State, seat: string): number => amountOf(sideEffects(s, seat), 'initiative');

/** Is an identical command card (same title) already in effect on this unit or side? Identical cards do not stack. */
export const identicalInEffect = (s: State, title: string, seat: string, unit: string | null): boolean =>
  s.effects.some((e) => e.title === title && e.unit === unit && (unit !== null || e.seat === seat));

/** Can this attack still be resolved: attackers able and present, target present? */
export function attackVoid(s: State, a: Attack): string | null {
  if (!unitIn(s, a.target)) return 'the target is gone';
  if (a.closeAssault)
    return assaultParticipants(s, a).length < MIN_CLOSE_ASSAULT ? `fewer than ${MIN_CLOSE_ASSAULT} infantry of the close assault can still attack` : null;
  if (a.attackers.some((u) => !unitIn(s, u) || cannotAttack(s, u) !== null)) return 'the attacker can no longer attack';
  return null;
}
