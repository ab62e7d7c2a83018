import type { Ctx } from '../kernel/engine.js';
import { ok } from '../kernel/result.js';
import type { Side } from '../frontline-general/data/schema.js';
import { mineExitFails, tileSpec, wireExitPasses, type Dir } from './data/tiles.js';
import { colOf, direction, isSpace, neighbours, opposite, rowOf } from './map.js';
import { other, tileAt, unitIn, type Command, type State } from './model.js';
import { no, Out, type Decision } from './out.js';
import { resolveAttack } from './combat.js';
import { drawDamage } from './damage.js';
import { attackProblem } from './targets.js';
import { cardOf, isFoot, isTankLike, movementAllowance, occupyProblem, onMap, RULE, sideUnitsAt, STACK_LIMIT } from './rules.js';
import { checkVictory } from './turn.js';
import { entrySpaces } from './commitment.js';

/**
 * 003 §III Movement and Stacking: units in play since an earlier turn move orthogonally (infantry
 * 2, tanks 1; a discarded Command card adds one), through friends but not enemies, at most two
 * friendly units a space at the end; entering or leaving an obstacle ends the move; wire and
 * minefields need an exit roll; infantry entering an enemy space raid it; tanks flatten crops and
 * wire. Moving next to or into an enemy opens an opportunity-fire window for the enemy.
 */

const RULE_SPG = '003 §III Movement 9';

/**
 * Crossing one side of the tile in `space` (003 Movement 7; §II 8, 12, 13): 'free' along the entry/exit
 * arrows of a bunker or infantry trench (infantry), 'barred' across any other side of a tile crossed
 * only by its arrows (bunker, tank trench), 'stop' into or out of an obstacle otherwise (the move
 * ends), 'plain' for everything else.
 */
export function crossing(s: State, unit: string, space: string, side: Dir): 'free' | 'barred' | 'stop' | 'plain' {
  const t = tileAt(s, space);
  if (!t) return 'plain';
  const spec = tileSpec(t.kind);
  if (spec.arrows && t.arrows && isFoot(s, unit)) {
    if (t.arrows.includes(side) && spec.arrows.free) return 'free';
    if (!t.arrows.includes(side) && spec.arrows.only) return 'barred';
  }
  return spec.obstacle ? 'stop' : 'plain';
}

/** The shortest legal path from the unit's space to `to` (empty when there is none). */
export function pathTo(s: State, unit: string, to: string, extra: boolean): string[] {
  const u = unitIn(s, unit)!;
  const max = movementAllowance(s, unit, extra);
  if (max === 0 || !isSpace(to) || to === u.at) return [];
  const foot = isFoot(s, unit);
  const enemy = (sp: string) => sideUnitsAt(s, sp, other(u.side)).length > 0;
  // Breadth first over (space, may go on): entering or leaving an obstacle other than by its arrows ends the move.
  const frontier: { path: string[]; go: boolean }[] = [{ path: [u.at], go: true }];
  const seen = new Set([`${u.at}|true`]);
  while (frontier.length) {
    const { path, go } = frontier.shift()!;
    const here = path[path.length - 1]!;
    if (!go || path.length - 1 >= max) continue;
    if (path.length > 1 && enemy(here)) continue;
    for (const n of neighbours(here)) {
      if (occupyProblem(s, unit, n)) continue;
      if (enemy(n) && !foot) continue; // only infantry raid (003 Movement 5)
      if (u.convoy && (rowOf(n) !== 1 || colOf(n) > colOf(here))) continue;
      const side = direction(here, n);
      const out = crossing(s, unit, here, side);
      const into = crossing(s, unit, n, opposite(side));
      if (out === 'barred' || into === 'barred') continue;
      const next = { path: [...path, n], go: out !== 'stop' && into !== 'stop' };
      if (n === to) return sideUnitsAt(s, n, u.side).length < STACK_LIMIT ? next.path : [];
      if (seen.has(`${n}|${next.go}`) || seen.has(`${n}|true`)) continue;
      seen.add(`${n}|${next.go}`);
      frontier.push(next);
    }
  }
  return [];
}

/** Why this unit may not move at all this phase, or null. */
export function cannotMove(s: State, seat: Side, unit: string): string | null {
  const u = unitIn(s, unit);
  if (!u || u.side !== seat || !onMap(u)) return `${unit} is not one of your units on the map`;
  if (u.enteredTurn >= s.turn) return 'units committed this turn, and starting units on turn 1, do not move';
  if (u.movedTurn === s.turn) return 'each unit moves once a Movement Phase';
  if (movementAllowance(s, unit, true) === 0) return `${cardOf(s, unit).title} cannot move`;
  if (sideUnitsAt(s, u.at, other(seat)).length > 0) return 'a unit fighting within its space may not withdraw';
  return null;
}

/** Breakthrough scenarios: a US unit in row A may leave the map (003 §IV Moonlight on Metal, Crimson Snow). */
export const mayExit = (s: State, seat: Side, unit: string): boolean =>
  s.scenario.victory.kind === 'breakthrough' && seat === 'us' && rowOf(unitIn(s, unit)!.at) === 0 && !unitIn(s, unit)!.convoy;

/**
 * 003 Movement 9, Commitment 1: a self-propelled gun (line 'either', the M7) changes line in the
 * Movement Phase through one of its side's setup (entry) spaces: from such a space to 'rear', or
 * from the rear line to such a space. Ruling: on the map it is artillery and moves no other way
 * (Movement 2); it needs its crew, and a unit fighting within its space may not leave it.
 */
export function lineChangeProblem(s: State, seat: Side, unit: string, to: string): string | null {
  const u = unitIn(s, unit);
  if (!u || u.side !== seat) return `${unit} is not one of your units in play`;
  if (cardOf(s, unit).line !== 'either') return 'only self-propelled guns change line';
  if (!s.scenario.rearLine) return 'this scenario has no rear line';
  if (u.immobilized || u.crew === null) return `${cardOf(s, unit).title} cannot move (immobilised or without its crew)`;
  if (u.enteredTurn >= s.turn) return 'units committed this turn do not move';
  if (u.movedTurn === s.turn) return 'each unit moves once a Movement Phase';
  if (u.at === 'rear') {
    if (!entrySpaces(s, seat).includes(to)) return `${to} is not one of your setup spaces`;
    if (sideUnitsAt(s, to, seat).length >= STACK_LIMIT) return `${to} is full`;
    return occupyProblem(s, unit, to);
  }
  if (to !== 'rear') return `${cardOf(s, unit).title} moves only between the lines`;
  if (!entrySpaces(s, seat).includes(u.at)) return 'it leaves the map only from one of your setup spaces';
  if (sideUnitsAt(s, u.at, other(seat)).length > 0) return 'a unit fighting within its space may not withdraw';
  return null;
}

export function decideMove(s: State, seat: Side, c: Extract<Command, { type: 'Move' }>, ctx: Ctx): Decision {
  if (c.to === 'rear' || unitIn(s, c.unit)?.at === 'rear') {
    const problem = lineChangeProblem(s, seat, c.unit, c.to);
    if (problem) return no('move/line-change', problem, RULE_SPG);
    if (c.extra !== undefined) return no('move/no-extra', 'A change of line takes no Command card', RULE_SPG);
    const out = new Out(s);
    const from = unitIn(s, c.unit)!.at;
    out.emit({ type: 'UnitMoved', unit: c.unit, path: [from, c.to], raid: false });
    if (c.to !== 'rear') offerOpportunityFire(out, c.unit, [from, c.to]);
    return ok(out.list);
  }
  const why = cannotMove(s, seat, c.unit);
  if (why) return no('move/cannot-move', why, RULE.move);
  if (c.extra !== undefined) {
    if (!s.seats[seat].commands.includes(c.extra)) return no('command/not-in-hand', `${c.extra} is not in your hand`, RULE.command);
    if ((isFoot(s, c.unit) && s.scenario.noSprint) || (!isFoot(s, c.unit) && s.scenario.noPush))
      return no('move/no-extra', 'No sprinting or pushing in this scenario', RULE.move);
  }
  const out = new Out(s);
  const u = unitIn(s, c.unit)!;
  if (c.to === 'exit') {
    if (!mayExit(s, seat, c.unit)) return no('move/no-exit', 'Only US units in row A may exit the map here', '003 §IV Moonlight on Metal');
    if (!exitCheck(out, ctx, c.unit)) return ok(out.list);
    out.emit({ type: 'UnitExited', unit: c.unit, reason: 'breakthrough' });
    checkVictory(out);
    return ok(out.list);
  }
  const path = pathTo(s, c.unit, c.to, c.extra !== undefined);
  if (path.length === 0) return no('move/no-path', `${c.to} cannot be reached from ${u.at} this turn`, RULE.move);
  if (c.extra !== undefined && pathTo(s, c.unit, c.to, false).length > 0)
    return no('move/extra-unneeded', 'The move is within the normal rate; keep your card', RULE.move);
  if (c.extra !== undefined) out.emit({ type: 'CommandCardDiscarded', seat, card: c.extra, purpose: isFoot(s, c.unit) ? 'sprint' : 'push' });
  if (!exitCheck(out, ctx, c.unit)) return ok(out.list);
  if (!unitIn(out.s, c.unit)) return ok(out.list);
  const raid = sideUnitsAt(s, c.to, other(seat)).length > 0;
  out.emit({ type: 'UnitMoved', unit: c.unit, path, raid });
  const t = tileAt(out.s, c.to);
  if (t && isTankLike(out.s, c.unit) && tileSpec(t.kind).removedByTank) out.emit({ type: 'TileRemoved', space: c.to });
  if (u.convoy && c.to === s.scenario.convoy?.goal) {
    out.emit({ type: 'UnitExited', unit: c.unit, reason: 'convoy' });
    checkVictory(out);
    return ok(out.list);
  }
  offerOpportunityFire(out, c.unit, path);
  return ok(out.list);
}

/** Wire and minefield exit checks (003 §II 6, 14). Returns whether the unit may go on. */
function exitCheck(out: Out, ctx: Ctx, unit: string): boolean {
  const u = unitIn(out.s, unit)!;
  const t = tileAt(out.s, u.at);
  const check = t ? tileSpec(t.kind).exitCheck : null;
  if (!check) return true;
  if (check === 'wire' && !isFoot(out.s, unit)) return true;
  const dice: [number, number] = [ctx.rng.die(10), ctx.rng.die(10)];
  const sum = dice[0] + dice[1];
  const passed = check === 'wire' ? wireExitPasses(sum) : !mineExitFails(sum, !isFoot(out.s, unit));
  out.emit({ type: 'ExitRolled', unit, obstacle: check, dice, passed });
  if (!passed && check === 'mines') drawDamage(out, ctx, unit, null);
  return passed;
}

/** Enemy units that may fire at a unit that moved along `path` (003 Movement 8), each once per mover. */
export function opportunityShooters(s: State, mover: string, path: readonly string[]): string[] {
  const m = unitIn(s, mover);
  if (!m || m.convoy) return [];
  const enemy = other(m.side);
  const near = new Set(path.slice(1).flatMap((p) => [p, ...neighbours(p)]));
  return Object.values(s.units)
    .filter((u) => u.side === enemy && onMap(u) && near.has(u.at) && !s.opfired.includes(`${u.id}>${mover}`))
    .filter((u) => firstWeapons(s, enemy, u.id, mover).length > 0)
    .map((u) => u.id);
}

/** The weapons (up to two) a shooter fires at a target, the first that may. */
export function firstWeapons(s: State, seat: Side, shooter: string, target: string): number[] {
  const ws = cardOf(s, shooter)
    .weapons.map((_, i) => i)
    .filter((i) => attackProblem({ ...s, attacks: [] }, seat, shooter, target, [i]) === null);
  return ws.slice(0, 2);
}

export function offerOpportunityFire(out: Out, mover: string, path: readonly string[]): void {
  const shooters = opportunityShooters(out.s, mover, path);
  if (shooters.length === 0) return;
  out.emit({ type: 'OpportunityFireOffered', window: `opfire-${out.s.opfireSeq + 1}`, seat: other(unitIn(out.s, mover)!.side), mover, shooters });
}

/** OpportunityFire: a bonus attack before the Combat Phase; its damage carries into this turn's combat. */
export function decideOpportunityFire(s: State, seat: Side, c: Extract<Command, { type: 'OpportunityFire' }>, ctx: Ctx): Decision {
  const w = s.opfire;
  if (!w || w.seat !== seat) return no('opfire/no-window', 'No opportunity fire is yours to take', RULE.opfire);
  if (!w.shooters.includes(c.unit)) return no('opfire/not-a-shooter', `${c.unit} may not fire at the moving unit`, RULE.opfire);
  const weapons = firstWeapons(s, seat, c.unit, w.mover);
  const out = new Out(s);
  out.emit({ type: 'OpportunityFirePassed', window: w.id });
  const attack = {
    id: `op-${w.id}-${c.unit}`,
    seat,
    attackers: [c.unit],
    target: w.mover,
    weapons,
    spotter: null,
    kind: 'unit' as const,
    status: 'resolved' as const,
  };
  out.emit({ type: 'OpportunityFireTaken', shooter: c.unit, mover: w.mover, weapons });
  resolveAttack(out, ctx, attack, null);
  if (!out.s.result && unitIn(out.s, w.mover)) {
    const rest = w.shooters.filter(
      (x) => x !== c.unit && unitIn(out.s, x) && firstWeapons(out.s, seat, x, w.mover).length > 0 && !out.s.opfired.includes(`${x}>${w.mover}`),
    );
    if (rest.length) out.emit({ type: 'OpportunityFireOffered', window: `opfire-${out.s.opfireSeq + 1}`, seat, mover: w.mover, shooters: rest });
  }
  return ok(out.list);
}

export function decidePassOpportunityFire(s: State, seat: Side): Decision {
  if (!s.opfire || s.opfire.seat !== seat) return no('opfire/no-window', 'No opportunity fire is yours to pass', RULE.opfire);
  const out = new Out(s);
  out.emit({ type: 'OpportunityFirePassed', window: s.opfire.id });
  return ok(out.list);
}

/** Liri Valley Road: a convoy unit that can advance toward column 1 must (003 §IV). Returns one that has not. */
export function convoyMustMove(s: State, seat: Side): string | null {
  for (const u of Object.values(s.units)) {
    if (!u.convoy || u.side !== seat || cannotMove(s, seat, u.id)) continue;
    const west = `B${colOf(u.at)}`;
    if (colOf(u.at) > 0 && pathTo(s, u.id, west, false).length > 0) return u.id;
  }
  return null;
}
