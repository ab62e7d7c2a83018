import type { DamageEdge, UnitCard, UnitType, Weapon } from './data/schema.js';

/**
 * The Frontline General core: the rules the card game (001) and the map expansion (003) share,
 * as small pure functions. Where 003 changes a rule (003 l.58: it supersedes 001 on the map),
 * the function takes a RulesVariant, so one combat resolver serves both engines.
 */

/** What 003 changes in the shared combat rules. */
export interface RulesVariant {
  readonly id: '001' | '003';
  /** Natural 2–3 invokes friendly fire (001 Combat Phase: Attack); 003 Combat 18 drops it. */
  readonly friendlyFire: boolean;
  /** Natural 19–20: destroyed outright (001), or a Damage card, destroying a unit that has one (003 Combat 14). */
  readonly highRoll: 'destroyed-outright' | 'damage-card';
  /** Crew fate at Intensity 4–6: captured while the enemy has ground units (001), or it survives damaged (003 Combat 11). */
  readonly crewMid: 'captured' | 'damaged';
  /** An Initiative-bonus Command card's value: as the card prints it (001), or 003's own figure (003 l.458: Ambush! +2). */
  readonly initiativeBonus: 'printed' | number;
}

export const CARD_GAME: RulesVariant = { id: '001', friendlyFire: true, highRoll: 'destroyed-outright', crewMid: 'captured', initiativeBonus: 'printed' };
export const MAP_EXPANSION: RulesVariant = { id: '003', friendlyFire: false, highRoll: 'damage-card', crewMid: 'damaged', initiativeBonus: 2 };

/** The Initiative bonus an Initiative card gives under a variant (`printed`: the card's own amount). */
export const initiativeBonus = (printed: number, variant: RulesVariant): number => (variant.initiativeBonus === 'printed' ? printed : variant.initiativeBonus);

export type TargetIcon = 'infantry' | 'vehicle' | 'aircraft';

/** Which attack icon a unit type is attacked under: tanks, vehicles, guns and artillery all as vehicles. */
export function targetIcon(type: UnitType): TargetIcon {
  if (type === 'infantry' || type === 'crew') return 'infantry';
  if (type === 'aircraft') return 'aircraft';
  return 'vehicle';
}

/** The edge of a Damage card that applies to a unit type. */
export function damageEdge(type: UnitType): DamageEdge {
  if (type === 'infantry' || type === 'crew') return 'infantry';
  if (type === 'tank' || type === 'vehicle') return 'vehicle';
  if (type === 'aircraft') return 'aircraft';
  return 'artillery';
}

/** Artillery and guns are immobile unless they are mobile artillery (committed to either line). */
export const isImmobile = (card: UnitCard): boolean => (card.type === 'artillery' || card.type === 'gun') && card.line !== 'either';
export const isMobileArtillery = (card: UnitCard): boolean => card.type === 'artillery' && card.line === 'either';
export const isGroundType = (type: UnitType): boolean => type !== 'aircraft' && type !== 'crew';

/** Can this weapon, by its printed values, affect this kind of unit at all? Bullets cannot touch base Defense 2+ (001; 003 Combat 13). */
export function weaponCanAffect(weapon: Weapon, target: UnitCard): boolean {
  const icon = targetIcon(target.type);
  if (weapon.attack[icon] === undefined) return false;
  if (weapon.bullets && target.defense >= 2) return false;
  return true;
}

export type SpecialRoll = 'friendly-fire' | 'double-intensity' | 'destroyed-outright' | 'damage-card' | null;

/**
 * Special attack rolls on the natural 2d10 sum: 18 doubles Intensity (both books); 2–3 friendly
 * fire only in the card game; 19–20 destroys outright (001) or draws a Damage card (003 Combat 14).
 */
export function specialRoll(naturalSum: number, variant: RulesVariant): SpecialRoll {
  if (naturalSum <= 3) return variant.friendlyFire ? 'friendly-fire' : null;
  if (naturalSum === 18) return 'double-intensity';
  if (naturalSum >= 19) return variant.highRoll;
  return null;
}

export type AttackResult = 'hit' | 'miss' | Exclude<SpecialRoll, null>;

/**
 * The combat resolver's attack roll: the special result of the natural sum if there is one,
 * else a hit when the sum with its +1 bonus reaches the value needed. A +1 card only helps
 * reach the attack value; special rolls read the dice as thrown (RULINGS of both engines).
 */
export function attackResult(dice: readonly [number, number], bonus: number, needed: number, variant: RulesVariant): AttackResult {
  const natural = dice[0] + dice[1];
  return specialRoll(natural, variant) ?? (natural + bonus >= needed ? 'hit' : 'miss');
}

/**
 * Raw damage is Intensity plus Damage Index; net damage is what gets past Defense. Intensity is the
 * roll with its bonuses (a discarded card's +1 improves the roll itself, intensity cards add to it);
 * an attack sum of 18 doubles that Intensity before the Damage Index is added. Only crew survival
 * reads the base (unmodified) Intensity die.
 */
export function netDamage(intensity: number, damageIndex: number, defense: number, opts: { doubled?: boolean; bonus?: number } = {}): number {
  const withBonus = intensity + (opts.bonus ?? 0);
  const raw = (opts.doubled ? withBonus * 2 : withBonus) + damageIndex;
  return Math.max(0, raw - defense);
}

export type CrewFate = 'returned' | 'captured' | 'lost' | 'damaged';

/**
 * A destroyed unit's crew by the base Intensity die: 1–3 survives, 7+ is lost; 4–6 is captured
 * if the enemy has a ground unit in play, else survives (001), or survives damaged (003 Combat 11).
 */
export function crewFate(baseIntensity: number, enemyHasGround: boolean, variant: RulesVariant): CrewFate {
  if (baseIntensity <= 3) return 'returned';
  if (baseIntensity <= 6) return variant.crewMid === 'damaged' ? 'damaged' : enemyHasGround ? 'captured' : 'returned';
  return 'lost';
}

/** Victory points: destroyed units score their cost, captured units double (001 Victory Points; 003 Win Conditions and Scoring). */
export const victoryPoints = (cost: number, captured: boolean): number => (captured ? cost * 2 : cost);

/** A unit survives the phase: back to Half Endurance if it has a Damage card, otherwise to Full. */
export const recoveredEndurance = (card: UnitCard, hasDamageCard: boolean): number => (hasDamageCard ? card.endurance.half : card.endurance.full);

/** Does this hit take the unit to its Half Endurance breakpoint without a Damage card yet? */
export const needsDamageCard = (card: UnitCard, enduranceAfter: number, hasDamageCard: boolean): boolean =>
  !hasDamageCard && enduranceAfter > 0 && enduranceAfter <= card.endurance.half;

/** Initiative: 1d10 plus modifiers; a tie is re-rolled. Returns the winner or null for a tie. */
export function initiativeWinner(us: number, de: number): 'us' | 'de' | null {
  return us > de ? 'us' : de > us ? 'de' : null;
}
