// Attack results (002 p.3–4): the Edge moving on a finalised 1 or 6, reading the results table,
// Blitz, Disrupt, Rout (Retreat or Hold), Miss, Displacement, cities that fall or are freed, the
// enemy Capital, and Rally's reward.
import type { Seat } from '../kernel/visibility.js';
import {
  boardOf,
  cityAt,
  columnFor,
  controllerOf,
  defended,
  distance,
  isFallen,
  noRetreatGround,
  occupationPoints,
  RALLY_SHIFT,
  readTable,
  retreatSquares,
  unitById,
  maneuverTargets,
} from './board.js';
import { EMPTY_CITY_HIT } from './data.js';
import { attackBoard, seatOf, type Flow } from './flow.js';
import { inRange } from './legal.js';
import { otherColor, type Color } from './model.js';
import { offerOpportunityFire } from './tasks.js';

function moveEdge(f: Flow, attackerColor: Color) {
  const a = f.s.attack!;
  const board = attackBoard(f.s);
  const holder = f.s.edge[board]!.holder;
  // 002 p.4: a finalised 1 sends the Edge to the defender, a 6 to the attacker (the white die; RULINGS).
  if (a.white === 1 && holder !== otherColor(attackerColor)) f.emit({ type: 'EdgeMoved', board, holder: otherColor(attackerColor) });
  if (a.white === 6 && holder !== attackerColor) f.emit({ type: 'EdgeMoved', board, holder: attackerColor });
}

/** The result is final: the Edge may move, then the table's result (or the Empty City die) is applied. */
export function finalize(f: Flow): void {
  const a = f.s.attack!;
  const att = unitById(f.s, a.attacker)!;
  moveEdge(f, att.color);
  if (a.targetUnit === null) {
    // Empty City (002 p.3): 1–4 and the attacker enters the city, 5–6 misses.
    if (a.white! <= EMPTY_CITY_HIT) {
      f.emit({ type: 'AttackResolved', result: 'taken', icon: null, natural: 'taken', note: 'the attacker enters the city' });
      return shiftInto(f, att.id, a.target, 'enter');
    }
    f.emit({ type: 'AttackResolved', result: 'miss', icon: null, natural: 'miss', note: 'empty city attack missed' });
    return endAttack(f, false);
  }
  const t = unitById(f.s, a.targetUnit)!;
  const cell = readTable(f.s.table, columnFor(f.s, att.kind, att.sq!, a.target), a.white!, a.yellow, a.die);
  const guard = defended(f.s, cell.icon, t, a.target);
  const natural = guard ? 'miss' : cell.result === 'adv' ? 'miss' : cell.result;
  const result = a.rallied ? RALLY_SHIFT[natural] : natural;
  const notes = [guard === 'city-defense' ? 'City Defense' : guard === 'dug-in' ? 'Dug In' : '', a.rallied ? 'rallied' : ''].filter(Boolean);
  f.emit({ type: 'AttackResolved', result, icon: cell.icon ?? null, natural, note: notes.join(', ') });
  if (result === 'miss') return endAttack(f, a.rallied && natural === 'miss');
  // A disrupted unit hit by Disrupt or Rout is Blitzed instead (002 p.3).
  if (result === 'blitz' || !t.active) {
    f.emit({ type: 'UnitBlitzed', unit: t.id });
    return vacated(f, a.target);
  }
  if (result === 'disrupt' || noRetreatGround(f.s, a.target) || retreatSquares(f.s, t).length === 0) {
    f.emit({ type: 'UnitFlipped', unit: t.id, active: false, why: result === 'disrupt' ? 'Disrupt' : 'Rout with no retreat' });
    return endAttack(f, false);
  }
  f.ask({ topic: 'rout', seat: controllerOf(f.s, t).id, unit: t.id });
}

/** The defender of a Rout retreats; the attacking player shifts the routed unit (002 p.3), asked only when there is a choice. */
export function retreat(f: Flow, seat: Seat): void {
  f.answered(seat, 'Retreat');
  const t = unitById(f.s, f.s.attack!.targetUnit!)!;
  const squares = retreatSquares(f.s, t);
  if (squares.length === 1) return moveInRetreat(f, squares[0]!);
  f.ask({ topic: 'retreat-square', seat: f.s.attack!.seat, unit: t.id, squares });
}

/** The defender of a Rout holds: the unit is disrupted in place. */
export function hold(f: Flow, seat: Seat): void {
  f.answered(seat, 'Hold');
  f.emit({ type: 'UnitFlipped', unit: f.s.attack!.targetUnit!, active: false, why: 'held after a Rout' });
  endAttack(f, false);
}

export function retreatTo(f: Flow, seat: Seat, square: string): void {
  f.answered(seat, square);
  moveInRetreat(f, square);
}

function moveInRetreat(f: Flow, square: string): void {
  const a = f.s.attack!;
  const from = a.target;
  f.emit({ type: 'UnitMoved', unit: a.targetUnit!, from, to: square, how: 'retreat' });
  vacated(f, from);
}

/** The attacker takes the Displacement it was offered. */
export function displace(f: Flow, seat: Seat): void {
  const q = f.answered(seat, 'Displace');
  shiftInto(f, q.unit!, q.squares![0]!, 'displace');
}

/** Displacement (002 p.4): an attacker one square from the vacated square may shift onto it, and must when it is a city. */
function vacated(f: Flow, square: string) {
  const a = f.s.attack!;
  const att = unitById(f.s, a.attacker)!;
  if (distance(f.s, att.sq!, square) !== 1) return endAttack(f, false);
  if (cityAt(f.s, square)) return shiftInto(f, att.id, square, 'displace');
  f.ask({ topic: 'displace', seat: a.seat, unit: att.id, squares: [square] });
}

/** A unit enters a square by attack or displacement: cities fall, are freed, or the enemy capital wins (002 p.1, p.4). */
function shiftInto(f: Flow, unit: string, square: string, how: string): void {
  const u = unitById(f.s, unit)!;
  f.emit({ type: 'UnitMoved', unit, from: u.sq!, to: square, how });
  const city = cityAt(f.s, square);
  if (city) {
    const owner = seatOf(f.s, city.owner, boardOf(f.s, square));
    if (city.owner !== u.color && city.type === 'capital') {
      f.emit({
        type: 'GameOver',
        winners: u.color,
        reason: `${u.color} entered ${city.owner}'s Capital ${square}`,
        op: { green: occupationPoints(f.s, 'green'), red: occupationPoints(f.s, 'red') },
      });
      return;
    }
    if (city.owner !== u.color && !isFallen(f.s, square)) f.emit({ type: 'CityFell', square, seat: owner.id });
    else if (city.owner === u.color && isFallen(f.s, square)) f.emit({ type: 'CityFreed', square, seat: owner.id });
  }
  endAttack(f, false);
}

export function endAttack(f: Flow, reward: boolean): void {
  if (f.over()) return;
  const a = f.s.attack!;
  f.emit({ type: 'AttackEnded' });
  if (reward) {
    const t = unitById(f.s, a.targetUnit!)!;
    const defender = controllerOf(f.s, t);
    // Rally's reward (002 p.5): a disrupted target is Regrouped at once; an active one may Maneuver or fire back.
    if (!t.active) return f.emit({ type: 'UnitFlipped', unit: t.id, active: true, why: 'Rally reward' });
    const att = unitById(f.s, a.attacker);
    if (maneuverTargets(f.s, t).length > 0 || (att && inRange(f.s, t, att)))
      return f.ask({ topic: 'rally-reward', seat: defender.id, unit: t.id, squares: att ? [att.sq!] : [] });
    return;
  }
  if (a.supplied) offerOpportunityFire(f, a.attacker, 'Attack');
}
