import { violation, type RuleViolation } from '../kernel/errors.js';
import { indexCatalog } from '../frontline-general/data/catalog.js';
import type { Side, UnitCard } from '../frontline-general/data/schema.js';
import { isGroundType, targetIcon, weaponCanAffect } from '../frontline-general/rules.js';
import { ROLES, type Role, type RoleEntry } from './data/roles.js';
import { tileSpec, type Dir, type EdgeColour, type Edges, type TileSide } from './data/tiles.js';
import { crossed, distance, sidesCrossed, isSpace, pathSpaces, rowOf } from './map.js';
import { cardEntry, other, tileAt, unitIn, type MapTile, type MapUnit, type State } from './model.js';

/** 003 sections cited by refusals. */
export const RULE = {
  setup: '003 §III Game Types and Setup',
  turn: '003 §III Turn Sequence',
  move: '003 §III Movement and Stacking',
  commit: '003 §III Commitment',
  target: '003 §III Combat 1–8',
  resolve: '003 §III Combat 9',
  assault: '003 §III Combat 16',
  destroy: '003 §III Combat 20',
  opfire: '003 §III Movement and Stacking 8',
  draw: '003 §III Draw Phase Functions',
  command: '003 §II Command Cards',
} as const;

export const HAND_LIMIT_UNITS = 7;
export const HAND_LIMIT_COMMANDS = 5;
/** 003 Combat 7. */
export const INFANTRY_RANGE = 5;
/** 003 Combat 7: "within 3 spaces" may not be fired on; RULINGS: a mortar needs 4 or more. */
export const MORTAR_MIN = 4;
export const CLOSE_RANGE_BONUS = 3;
export const GUN_BONUS = 2;
export const STACK_LIMIT = 2;
export const OVERRUN_TURNS = 3;

/**
 * A Liri Valley convoy unit: a face-down Command card that moves as a vehicle (003 §IV The Liri
 * Valley Road). Its values are REPRESENTATIVE: attacked as a vehicle of Defense 0; a hit destroys
 * it on Intensity 4+ (the scenario's number); it scores no points.
 */
export const CONVOY_CARD: UnitCard = {
  id: 'convoy',
  side: 'us',
  title: 'Convoy unit',
  type: 'vehicle',
  cost: 0,
  defense: 0,
  endurance: { full: 1, half: 1 },
  crew: 'none',
  line: 'front',
  weapons: [],
};
export const CONVOY_KILL_INTENSITY = 4;

export const cardOf = (s: State, instance: string): UnitCard => {
  const c = cardEntry(s, instance)!.card;
  return c === 'convoy' ? CONVOY_CARD : indexCatalog(s.catalog).unit(c);
};
export const costOf = (s: State, instance: string): number => cardOf(s, instance).cost;

/** Role and calibre (data/roles.ts or the club's table); unknown cards get the role of their type. */
export function roleOf(s: State, instance: string): RoleEntry {
  const card = cardEntry(s, instance)!.card;
  if (Object.hasOwn(s.roles, card)) return s.roles[card]!;
  const known = ROLES.get(card);
  if (known) return known;
  const type = cardOf(s, instance).type;
  const byType: Record<string, Role> = {
    infantry: 'rifle',
    crew: 'crew',
    tank: 'tank',
    vehicle: 'vehicle',
    gun: 'gun',
    artillery: 'artillery',
    aircraft: 'aircraft',
  };
  return { role: byType[type] ?? 'rifle', calibre: type === 'tank' || type === 'vehicle' ? 75 : 0 };
}
export const role = (s: State, unit: string): Role => roleOf(s, unit).role;

export const onMap = (u: MapUnit): boolean => isSpace(u.at);
export const unitsAt = (s: State, space: string): MapUnit[] => Object.values(s.units).filter((u) => u.at === space);
export const sideUnitsAt = (s: State, space: string, side: Side): MapUnit[] => unitsAt(s, space).filter((u) => u.side === side);

/** Infantry-like: infantry and crews on foot (003 Movement 2 table: Infantry/Crew). */
export const isFoot = (s: State, unit: string): boolean => ['infantry', 'crew'].includes(cardOf(s, unit).type);
export const isTankLike = (s: State, unit: string): boolean => unitIn(s, unit)!.convoy || ['tank', 'vehicle'].includes(cardOf(s, unit).type);

/** The side of a tile that is up, if any. */
export function tileSide(s: State, space: string): TileSide | null {
  const t = tileAt(s, space);
  if (!t) return null;
  const spec = tileSpec(t.kind);
  return t.intact ? spec.intact : spec.ruined;
}

/** A unit that needs a crew and has none stands idle. */
export const isCrewed = (s: State, u: MapUnit): boolean => u.convoy || cardOf(s, u.id).crew === 'none' || u.crew !== null;

// ---------------------------------------------------------------- movement

/** Spaces per Movement Phase (003 Movement 2; muddy scenarios: infantry 1, no sprint). */
export function movementAllowance(s: State, unit: string, extra: boolean): number {
  const u = unitIn(s, unit)!;
  if (u.immobilized) return 0;
  if (isFoot(s, unit)) return (s.scenario.infantryMove ?? 2) + (extra && !s.scenario.noSprint ? 1 : 0);
  if (isTankLike(s, unit)) return 1 + (extra && !s.scenario.noPush ? 1 : 0);
  return 0; // guns and artillery never move once deployed (003 Movement 2, Commitment 4)
}

/** Why this unit may not stand in that space (003 Movement 2 "May Occupy"), or null. */
export function occupyProblem(s: State, unit: string, space: string): string | null {
  const t = tileAt(s, space);
  if (!t) return null;
  const spec = tileSpec(t.kind);
  if (isTankLike(s, unit)) {
    if (!spec.tanksMayEnter) return `tanks and vehicles may not enter ${spec.title}`;
    if (s.scenario.vehiclesOnRoad && !onRoad(space)) return 'vehicles keep to the road (row B) in this scenario';
    return null;
  }
  if (cardOf(s, unit).type === 'gun') {
    if ((t.kind === 'building' && t.intact) || spec.obstacle || ['bunker', 'panzernest', 'mg-nest'].includes(t.kind))
      return `guns may not be placed in ${spec.title}`;
    if (t.kind === 'pantherturm' && cardEntry(s, unit)!.card !== 'de-pantherturm-i') return 'only the Pantherturm I stands in its emplacement';
  }
  return null;
}

/** Road spaces: REPRESENTATIVE, row B (the map's road artwork is not printed). */
export const onRoad = (space: string): boolean => rowOf(space) === 1;

// ---------------------------------------------------------------- combat

export const isAircraft = (s: State, unit: string): boolean => cardOf(s, unit).type === 'aircraft';
export const isArtillery = (s: State, unit: string): boolean => cardOf(s, unit).type === 'artillery';

/** Is this an area weapon (003 Combat 15): a mortar's mortar, rear-line artillery's main gun, a bomb? */
export function isAreaWeapon(s: State, unit: string, weapon: number): boolean {
  const u = unitIn(s, unit)!;
  const w = cardOf(s, unit).weapons[weapon];
  if (!w) return false;
  if (w.bombs) return true;
  if (role(s, unit) === 'mortar' && weapon === 0) return true;
  return u.at === 'rear' && weapon === 0;
}

export const sumAttached = (s: State, u: MapUnit, kind: 'accuracy' | 'defense' | 'concealment' | 'intensity' | 'rateOfFire'): number => {
  const idx = indexCatalog(s.catalog);
  const titles = new Set<string>();
  let n = 0;
  for (const c of u.attached) {
    const card = idx.command(c);
    if (titles.has(card.title)) continue; // identical Command cards do not stack (003 §II Command Cards)
    titles.add(card.title);
    if (card.effect.kind === kind) n += card.effect.amount;
  }
  return n;
};

/** Why this unit may not attack at all this turn, or null. */
export function cannotAttack(s: State, unit: string): RuleViolation | null {
  const u = unitIn(s, unit);
  if (!u || u.side === undefined) return violation('combat/unit-not-in-play', `${unit} is not in play`, RULE.target);
  if (u.convoy) return violation('combat/convoy', 'Convoy units do not fire', '003 §IV The Liri Valley Road');
  const card = cardOf(s, unit);
  if (card.weapons.length === 0) return violation('combat/no-weapons', `${card.title} has no weapons`, RULE.target);
  if (!isCrewed(s, u)) return violation('combat/idle', `${card.title} has no crew`, RULE.target);
  if (u.shakenUntil >= s.turn) return violation('combat/shaken', `${card.title} is shaken`, RULE.resolve);
  if (s.sabotaged.includes(unit)) return violation('combat/sabotaged', `${card.title} is sabotaged this turn`, '003 §II Command Cards');
  if (onMap(u) && Object.hasOwn(s.smoke, u.at)) return violation('combat/in-smoke', 'Units in smoke may not fire', '003 §III Combat 23');
  if (isAircraft(s, unit) && u.path === null) return violation('combat/no-flight-path', `${card.title} has no flight path this turn`, '003 §III Commitment 3');
  if (s.attacks.some((a) => a.status !== 'cancelled' && (a.attackers.includes(unit) || a.spotter === unit)))
    return violation('combat/already-declared', `${card.title} already attacks or spots this turn`, RULE.target);
  return null;
}

/** Night (Moonlight on Metal): on odd turns units see only adjacent spaces and their own. */
export const nightBlind = (s: State, from: string, to: string): boolean => s.scenario.night === true && s.turn % 2 === 1 && distance(from, to) > 1;

/**
 * Line of sight from one space to another for `side` (003 Combat 8): blocked by a tile with
 * blocking walls or crops, by smoke, or by a space holding a unit of `side` (not for mortars).
 */
export function lineOfSight(s: State, from: string, to: string, side: Side, opts: { mortar?: boolean } = {}): boolean {
  if (from === to) return true;
  if (nightBlind(s, from, to)) return false;
  if (Object.hasOwn(s.smoke, to)) return false;
  if (edgeColours(s, from, sidesCrossed(from, to)).includes('red')) return false; // LOS out over a red edge
  for (const sp of crossed(from, to)) {
    if (tileSide(s, sp)?.blocksLos) return false;
    if (Object.hasOwn(s.smoke, sp)) return false;
    if (!opts.mortar && sideUnitsAt(s, sp, side).length > 0) return false;
  }
  return true;
}

/** A tile's highlighted edges: a club's, else the kind's REPRESENTATIVE default; none once ruined (RULINGS). */
export const tileEdges = (t: MapTile | undefined): Edges => (t?.intact ? (t.edges ?? tileSpec(t.kind).edges ?? {}) : {});

/** The highlighted colours of these sides of the tile in `space`. */
export function edgeColours(s: State, space: string, sides: readonly Dir[]): EdgeColour[] {
  const edges = tileEdges(tileAt(s, space));
  return sides.flatMap((d) => (edges[d] ? [edges[d]] : []));
}

/**
 * 003 Combat 8, LOS into a feature tile: a unit is concealed from a direct attack when the line from
 * the attacker crosses a red or green edge of the tile it occupies. Not asked for strafing aircraft
 * and attacks on a whole space (mortars, artillery, bombs), nor within the space itself.
 */
export const concealedByEdges = (s: State, from: string, target: string): boolean => edgeColours(s, target, sidesCrossed(target, from)).length > 0;

/** Friendly infantry on the map that can see `space` and are not attacking: spotters (003 Combat 8). */
export function spotters(s: State, side: Side, space: string): string[] {
  return Object.values(s.units)
    .filter((u) => u.side === side && onMap(u) && cardOf(s, u.id).type === 'infantry' && !Object.hasOwn(s.smoke, u.at))
    .filter((u) => !s.attacks.some((a) => a.status !== 'cancelled' && a.attackers.includes(u.id)))
    .filter((u) => lineOfSight(s, u.at, space, side))
    .map((u) => u.id);
}

/** Enemy ground units share the space: they fight within it (003 Movement 5). */
export const contested = (s: State, space: string): boolean => sideUnitsAt(s, space, 'us').length > 0 && sideUnitsAt(s, space, 'de').length > 0;

/** Occupants protected from any attack from outside their tile: intact buildings, bunkers, Panzernests (003 §II 1, 8, 10). */
export const impervious = (s: State, space: string): boolean => tileSide(s, space)?.defense === 'impervious';

/** The tile defence bonus a unit gets against this attack (003 Combat 8, 22; §II 9). */
export function tileBonus(s: State, unit: string, fromSpace: string | null, area: boolean): number {
  const u = unitIn(s, unit)!;
  if (!onMap(u) || fromSpace === u.at) return 0; // fighting within a tile: no bonuses
  const t = tileAt(s, u.at);
  const sd = tileSide(s, u.at);
  if (!t || !sd || sd.defense === 'impervious') return 0;
  const spec = tileSpec(t.kind);
  if (spec.groundOnly && area) return 0;
  if (spec.bonusFor && !spec.bonusFor.includes(role(s, unit))) return 0;
  if (!isFoot(s, unit) && cardOf(s, unit).type !== 'gun') return 0;
  return sd.defense;
}

/** 003 Combat 17: infantry stacked with a friendly tank gain the tank's Defense − 2 (RULINGS: as a bonus). */
export function tankCover(s: State, unit: string): number {
  const u = unitIn(s, unit)!;
  if (!onMap(u) || !isFoot(s, unit)) return 0;
  const tanks = sideUnitsAt(s, u.at, u.side).filter((x) => x.id !== unit && !x.convoy && cardOf(s, x.id).type === 'tank');
  return Math.max(0, ...tanks.map((x) => cardOf(s, x.id).defense - 2));
}

export function defenseOf(s: State, unit: string, fromSpace: string | null, area: boolean): number {
  const u = unitIn(s, unit)!;
  if (u.convoy) return 0;
  const inside = fromSpace !== null && fromSpace === u.at;
  const cards = inside ? 0 : sumAttached(s, u, 'defense');
  return Math.max(0, cardOf(s, unit).defense - u.defenseLoss + cards + tileBonus(s, unit, fromSpace, area) + (inside ? 0 : tankCover(s, unit)));
}

/** Where an attacker fires from, for range, LOS and close range: its space, or null off the map. */
export const firesFrom = (s: State, unit: string): string | null => {
  const u = unitIn(s, unit)!;
  return onMap(u) ? u.at : null;
};

/** The attack value a weapon needs against a unit (003 Combat 3, 7, 9; §II tiles), before any +1 card. */
export function hitNeeded(s: State, attacker: string, weapon: number, target: string, opts: { area: boolean; unspotted: boolean }): number {
  const t = unitIn(s, target)!;
  const a = unitIn(s, attacker)!;
  const w = cardOf(s, attacker).weapons[weapon]!;
  const icon = t.convoy ? 'vehicle' : targetIcon(cardOf(s, target).type);
  let needed = w.attack[icon] ?? 99;
  if (!t.convoy && ['gun', 'artillery'].includes(cardOf(s, target).type)) needed -= GUN_BONUS;
  const from = firesFrom(s, attacker);
  if (from && onMap(t) && distance(from, t.at) <= 1 && isGroundType(cardOf(s, attacker).type)) needed -= CLOSE_RANGE_BONUS;
  needed -= sumAttached(s, a, 'accuracy');
  needed += a.accuracyLoss;
  if (onMap(t) && from !== t.at) {
    const tl = tileAt(s, t.at);
    const sd = tileSide(s, t.at);
    if (tl && sd && !(tileSpec(tl.kind).groundOnly && opts.area) && !isAircraft(s, attacker)) needed += sd.concealment;
    needed += sumAttached(s, t, 'concealment');
  }
  if (opts.unspotted) needed += s.scenario.unspotted?.penalty ?? 0;
  return needed;
}

/** Can this weapon affect the target by its printed values (bullets vs Defense 2+; 003 Combat 13)? Convoy units are vehicles of Defense 0. */
export function weaponAffects(s: State, attacker: string, weapon: number, target: string): boolean {
  const w = cardOf(s, attacker).weapons[weapon];
  if (!w) return false;
  const t = unitIn(s, target)!;
  if (t.convoy) return w.attack.vehicle !== undefined;
  return weaponCanAffect(w, cardOf(s, target));
}

/** Enemy units (and the side's rear line, aircraft) a seat controls in play. */
export const unitsOf = (s: State, side: Side): MapUnit[] => Object.values(s.units).filter((u) => u.side === side);
export const groundOnMap = (s: State, side: Side): MapUnit[] => unitsOf(s, side).filter((u) => onMap(u) && !u.convoy);

/** 003 Win Conditions: Overrun — enemy front line empty while you hold it with a ground unit. */
export const overrunning = (s: State, side: Side): boolean => groundOnMap(s, side).length > 0 && groundOnMap(s, other(side)).length === 0;

/** Is this target within range of the attacker (003 Combat 7)? */
export function inRange(s: State, attacker: string, weapon: number, space: string): boolean {
  const from = firesFrom(s, attacker);
  if (from === null) return true;
  const r = role(s, attacker);
  const d = distance(from, space);
  if (r === 'mortar' && weapon === 0) return d >= MORTAR_MIN;
  if (isFoot(s, attacker) && r !== 'sniper') return d <= INFANTRY_RANGE;
  return true;
}

export const inPath = (s: State, aircraft: string, space: string): boolean => pathSpaces(unitIn(s, aircraft)!.path ?? '').includes(space);
