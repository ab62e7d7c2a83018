import { parseHexId } from '../kernel/hex.js';
import { cardValue, isFace, isRed, suitOf } from './data/cards.js';
import { suppresses, type MoveClass } from './data/tables.js';
import type { UnitType } from './data/units.js';
import { distance, lineOfSight, neighbours, stepCost, firesUpHill, terrainOf, type Edge, type SightContext } from './hexmap.js';
import { other, type Event, type Seat, type State, type UnitState } from './model.js';

/** Where each rule comes from in 004 (section names: 004 is printed without numbers). */
export const RULE = {
  setup: '004 Setting Up The Game',
  sequence: '004 The Sequence Of Play',
  indirect: '004 The Indirect Fire Phase',
  air: '004 Resolving Air Support Fire',
  action: '004 The Action Phase',
  move: '004 The Action Phase: Move',
  fire: '004 The Action Phase: Fire',
  leader: '004 Leader Actions',
  assault: '004 The Assault Phase',
  los: '004 Line Of Sight',
  registration: '004 Optional Rules: Artillery Registration',
  builder: '004 Creating Your Own Scenarios',
} as const;

export const unitById = (s: State, id: string): UnitState | undefined => s.units.find((u) => u.id === id);
export const typeOf = (s: State, u: Pick<UnitState, 'type'>): UnitType => s.unitTypes.find((t) => t.id === u.type)!;
export const isLeader = (s: State, u: UnitState): boolean => typeOf(s, u).leader !== undefined;
export const onMapUnits = (s: State): UnitState[] => s.units.filter((u) => u.status === 'map');
export const unitsIn = (s: State, hex: string): UnitState[] => s.units.filter((u) => u.status === 'map' && u.hex === hex);
export const troopsIn = (s: State, hex: string, seat?: Seat): UnitState[] =>
  unitsIn(s, hex).filter((u) => !isLeader(s, u) && (seat === undefined || u.owner === seat));

/** The side whose map edge is column 1 is the west side; it faces east. */
export const edgeOf = (s: State, seat: Seat): Edge => (s.scenario.west === seat ? 'west' : 'east');
const opposite = (e: Edge): Edge => (e === 'west' ? 'east' : 'west');

/** The best training bonus of a friendly Leader in the same hex (assaults: same hex only, a ruling) or the same or an adjacent one; several Leaders do not add up (ruling). */
export function leaderBonus(s: State, u: UnitState, sameHexOnly: boolean): number {
  let best = 0;
  for (const l of onMapUnits(s)) {
    if (l.owner !== u.owner || l.id === u.id || !isLeader(s, l)) continue;
    const d = distance(l.hex!, u.hex!);
    if (d === 0 || (!sameHexOnly && d === 1)) best = Math.max(best, typeOf(s, l).leader!);
  }
  return best;
}

/** Training for all purposes: printed value, plus a nearby Leader's bonus, minus 1 while Suppressed (004 Leaders; Status Markers). */
export const trainingOf = (s: State, u: UnitState, assault = false): number => typeOf(s, u).training + leaderBonus(s, u, assault) - (u.suppressed ? 1 : 0);

export const sightOf = (s: State): SightContext => ({
  artilleryMarkers: new Set(s.markers.filter((m) => m.kind === 'artillery').map((m) => m.hex)),
  ...(s.scenario.visibility !== undefined ? { visibility: s.scenario.visibility } : {}),
});

/** Whether any unit of `seat` on the map sees `hex` (004 Indirect Fire: a unit must have a line of sight to the target hex). */
export function seenBy(s: State, seat: Seat, hex: string, sight = sightOf(s)): boolean {
  return onMapUnits(s).some((u) => u.owner === seat && lineOfSight(s.map, u.hex!, hex, sight));
}

/**
 * One combat card against one target (004 Resolving Artillery and Naval Fire, step 5; Fire):
 * face cards miss; an armoured target is hit when Hard Attack + card ≥ armour, an unarmoured
 * one when the card ≤ Soft Attack. Cards are never added together.
 */
export function cardHits(card: string, armor: number | undefined, hard: number, soft: number): boolean {
  if (isFace(card)) return false;
  const v = cardValue(card)!;
  return armor !== undefined ? hard + v >= armor : v <= soft;
}

/**
 * What a set of cards does to one unit: each hit is a step loss, except that a Dug In unit
 * ignores the first of each attack (no suppression check for it: ruling); each step loss
 * checks the card's suit on the Suppression Table against the target's training then.
 */
export function hitsOn(s: State, target: UnitState, cards: readonly string[], hard: number, soft: number, cause: string): Event[] {
  const t = typeOf(s, target);
  const out: Event[] = [];
  let steps = target.steps;
  let suppressed = target.suppressed;
  let absorbed = !target.dugIn;
  for (const card of cards) {
    if (steps === 0) break;
    if (!cardHits(card, t.armor, hard, soft)) continue;
    if (!absorbed) {
      absorbed = true;
      out.push({ type: 'HitAbsorbed', unit: target.id, card });
      continue;
    }
    out.push({ type: 'StepLost', unit: target.id, card, cause });
    steps -= 1;
    if (steps > 0 && !suppressed && suppresses(s.tables, trainingOf(s, { ...target, suppressed }), suitOf(card))) {
      suppressed = true;
      out.push({ type: 'UnitSuppressed', unit: target.id, card });
    }
  }
  return out;
}

/**
 * Direct fire values (004 Fire): the firer's printed attacks, less one each beyond three hexes,
 * less the target terrain's modifier and the hill-hexside modifier (Player Aid Card).
 */
export function fireValues(s: State, shooter: UnitState, target: UnitState): { range: number; hard: number; soft: number } {
  const t = typeOf(s, shooter);
  const range = distance(shooter.hex!, target.hex!);
  const minus =
    (range > s.tables.longRange ? 1 : 0) +
    s.tables.terrain[terrainOf(s.map, target.hex!)].fire +
    (firesUpHill(s.map, shooter.hex!, target.hex!) ? s.tables.hillFire : 0);
  return { range, hard: t.hard - minus, soft: Math.max(0, t.soft - minus) };
}

/** Indirect fire on a hex: the target terrain's modifier applies (ruling), no range or hill penalty. */
export function strikeValues(s: State, hex: string, hard: number, soft: number): { hard: number; soft: number } {
  const minus = s.tables.terrain[terrainOf(s.map, hex)].fire;
  return { hard: hard - minus, soft: Math.max(0, soft - minus) };
}

/** Cards a unit on the map draws when it fires: its current steps plus its Rate of Fire (ruling: in indirect fire too). */
export const fireCards = (s: State, u: UnitState): number => u.steps + typeOf(s, u).rateOfFire;

/** Assault cards: Training (with a Leader in the hex) plus steps, +1 infantry, +1 Dug In (004 Resolving Assaults; Dug In). */
export function assaultCards(s: State, u: UnitState): number {
  const t = typeOf(s, u);
  return Math.max(0, trainingOf(s, u, true) + u.steps) + (t.infantry ? 1 : 0) + (u.dugIn ? 1 : 0);
}

/** More red cards wins; a tie goes to the phasing player (004 Resolving Assaults). */
export const assaultWinner = (phasing: Seat, reds: Readonly<Record<Seat, number>>): Seat => (reds[other(phasing)] > reds[phasing] ? other(phasing) : phasing);

export const redCount = (cards: readonly string[]): number => cards.filter(isRed).length;

/** A leg or towed unit in the same hex as a friendly transport-capable unit is carried: it may not fire (004 Fire). */
export function isCarried(s: State, u: UnitState): boolean {
  const cls = typeOf(s, u).class;
  if (isLeader(s, u) || (cls !== 'leg' && cls !== 'towed')) return false;
  return unitsIn(s, u.hex!).some((x) => x.id !== u.id && x.owner === u.owner && typeOf(s, x).transport);
}

/**
 * Whether a unit may take an action now (004 The Action Phase): not one that fired in the
 * Indirect Fire Phase, is Suppressed or dug in this phase; never the same action twice; two
 * actions when it started next to or with a Leader; a Leader moves and takes one Rally or Dig In.
 */
export function canAct(s: State, u: UnitState, action: 'move' | 'fire' | 'command'): boolean {
  if (u.status !== 'map' || u.suppressed || u.firedIndirect || u.actions.includes('dig') || u.actions.includes(action)) return false;
  if (action === 'move' && isEmplaced(s, u)) return false;
  if (isLeader(s, u)) return action !== 'fire';
  if (action === 'command') return false;
  return u.actions.length < (u.twoActions ? 2 : 1);
}

/** A scenario's special rule: units of these types never move (nor are carried, nor exit). */
export const isEmplaced = (s: State, u: UnitState): boolean => s.scenario.emplaced?.includes(u.type) ?? false;

/** What a unit entering `hex` meets (004 Move): 'no' it may not enter, 'pass' it may enter and go on, 'stop' it may enter only to end there (an assault). */
export function entry(s: State, mover: UnitState, hex: string, cargo?: UnitState): 'no' | 'pass' | 'stop' {
  const t = typeOf(s, mover);
  if (t.class !== 'tracked' && s.markers.some((m) => m.kind === 'artillery' && m.hex === hex)) return 'no';
  const here = unitsIn(s, hex).filter((x) => x.id !== mover.id && x.id !== cargo?.id);
  const enemies = here.filter((x) => x.owner !== mover.owner);
  const friendTroops = here.filter((x) => x.owner === mover.owner && !isLeader(s, x));
  if (t.leader !== undefined) return enemies.length ? 'no' : 'pass';
  const cargoTroop = cargo !== undefined && !isLeader(s, cargo);
  if (enemies.length) {
    const enemyTroops = enemies.filter((x) => !isLeader(s, x));
    return t.infantry && friendTroops.length === 0 && !cargoTroop && enemyTroops.length <= 1 ? 'stop' : 'no';
  }
  if (friendTroops.length === 0) return 'pass';
  const [only] = friendTroops;
  const cls = typeOf(s, only!).class;
  return t.transport && !cargoTroop && friendTroops.length === 1 && (cls === 'leg' || cls === 'towed') ? 'pass' : 'no';
}

/**
 * Whether `cargo` may be carried by `mover` this Action Phase (004 Transport; Leaders may be
 * carried by Track or Wheel units). Being carried is the cargo's move (ruling), so it must be
 * able to move: not Suppressed, not fired indirectly, not dug in, not moved yet.
 */
export function mayCarry(s: State, mover: UnitState, cargo: UnitState): boolean {
  if (cargo.id === mover.id || cargo.owner !== mover.owner || !canAct(s, cargo, 'move')) return false;
  if (mover.hex !== mover.startHex || cargo.hex !== mover.hex || cargo.startHex !== mover.hex) return false;
  const mt = typeOf(s, mover);
  const ct = typeOf(s, cargo);
  if (ct.leader !== undefined) return mt.class === 'tracked' || mt.class === 'wheeled';
  return mt.transport && (ct.class === 'leg' || ct.class === 'towed');
}

/** Every hex a unit can reach with its movement points (Player Aid Card), with the cheapest path to it. */
export function reachable(s: State, mover: UnitState, cargo?: UnitState): Map<string, string[]> {
  const cls: MoveClass = typeOf(s, mover).class;
  const mp = s.tables.movementPoints[cls];
  const best = new Map<string, number>([[mover.hex!, 0]]);
  const paths = new Map<string, string[]>([[mover.hex!, [mover.hex!]]]);
  const out = new Map<string, string[]>();
  const queue: string[] = [mover.hex!];
  while (queue.length) {
    queue.sort((a, b) => best.get(a)! - best.get(b)! || (a < b ? -1 : 1));
    const at = queue.shift()!;
    for (const n of neighbours(s.map, at)) {
      const c = stepCost(s.tables, s.map, cls, at, n);
      if (c === null) continue;
      const spent = best.get(at)! + c;
      if (spent > mp || spent >= (best.get(n) ?? Infinity)) continue;
      const how = entry(s, mover, n, cargo);
      if (how === 'no') continue;
      best.set(n, spent);
      paths.set(n, [...paths.get(at)!, n]);
      out.set(n, paths.get(n)!);
      if (how === 'pass') queue.push(n);
    }
  }
  out.delete(mover.hex!);
  return out;
}

/** Enemy units `shooter` may fire on (004 Fire): in range, in sight, not in a hex with a friendly unit (ruling). */
export function fireTargets(s: State, shooter: UnitState): UnitState[] {
  const t = typeOf(s, shooter);
  if (t.range === 0 || isCarried(s, shooter)) return [];
  const sight = sightOf(s);
  return onMapUnits(s).filter(
    (x) =>
      x.owner !== shooter.owner &&
      x.hex !== shooter.hex &&
      !unitsIn(s, x.hex!).some((y) => y.owner === shooter.owner) &&
      distance(shooter.hex!, x.hex!) <= t.range &&
      lineOfSight(s.map, shooter.hex!, x.hex!, sight),
  );
}

/** On the opponent's edge column: a troop unit there may exit the map with its move (ruling). */
export const onExitEdge = (s: State, u: UnitState): boolean => {
  const col = parseHexId(u.hex!)!.col;
  return opposite(edgeOf(s, u.owner)) === 'east' ? col === s.map.cols : col === 1;
};

/** Leaders left with an enemy troop unit and no friendly one: eliminated at once (004 Leaders). */
export const lonelyLeaders = (s: State): UnitState[] =>
  onMapUnits(s).filter((l) => isLeader(s, l) && troopsIn(s, l.hex!, other(l.owner)).length > 0 && troopsIn(s, l.hex!, l.owner).length === 0);

/** Hexes where both sides have a troop unit: the assaults of the Assault Phase, in hex order. */
export const assaultHexes = (s: State, phasing: Seat): string[] =>
  [...new Set(onMapUnits(s).map((u) => u.hex!))].filter((h) => troopsIn(s, h, phasing).length > 0 && troopsIn(s, h, other(phasing)).length > 0).sort();

/** The unit that fights an assault for a side in a hex: a transport carrying another fights for both (004 Resolving Assaults, step 2). */
export function assaultUnit(s: State, hex: string, seat: Seat): UnitState {
  const troops = troopsIn(s, hex, seat);
  return troops.find((u) => typeOf(s, u).transport) ?? troops[0]!;
}
