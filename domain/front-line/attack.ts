// Attacking (002 p.3): the declaration, the windows before the result (Rally and Opportunity
// Fire, 002 p.5; the Edge's re-roll, 002 p.4), the dice, and a Tank's choice of die.
import type { Seat } from '../kernel/visibility.js';
import { columnFor, controllerOf, diceFor, readTable, unitAt, unitById } from './board.js';
import { attackBoard, seatOf, type Flow } from './flow.js';
import { rewardAttacker } from './legal.js';
import { finalize } from './results.js';

export function startAttack(f: Flow, seat: Seat, attacker: string, target: string, supplied: boolean): void {
  const targetUnit = unitAt(f.s, target)?.id ?? null;
  f.emit({
    type: 'AttackDeclared',
    attack: { attacker, seat, target, targetUnit, supplied, rallied: false, white: null, yellow: null, rerolled: false, die: null },
  });
  if (supplied && targetUnit) {
    const defender = controllerOf(f.s, unitById(f.s, targetUnit)!);
    // Rally (002 p.5): before dice, when a supplied attack targets a unit and its owner's Leadership is Available.
    if (defender.leadership === 'available') return f.ask({ topic: 'rally', seat: defender.id, unit: targetUnit });
  }
  roll(f, false);
}

/** Rally (002 p.5): the defender exhausts Leadership to shift the result one step down. */
export function rally(f: Flow, seat: Seat): void {
  const s = f.s;
  f.answered(seat, 'Rally');
  f.emit({ type: 'LeadershipSet', seat, to: 'exhausted', task: 'Rally' });
  f.emit({ type: 'Rallied', seat, unit: s.attack!.targetUnit! });
  roll(f, false);
}

/** Opportunity Fire (002 p.5), or the free fire back that is a Rally's reward. */
export function opportunityFire(f: Flow, seat: Seat, unit: string): void {
  const s = f.s;
  const q = f.answered(seat, 'OpportunityFire');
  if (q.topic === 'rally-reward') {
    // The reward is free: Leadership was exhausted by the Rally (002 p.5).
    const attacker = rewardAttacker(s, q)!;
    return startAttack(f, seat, unit, attacker.sq!, false);
  }
  f.emit({ type: 'LeadershipSet', seat, to: 'exhausted', task: 'Opportunity Fire' });
  startAttack(f, seat, unit, unitById(s, q.unit!)!.sq!, false);
}

export function roll(f: Flow, reroll: boolean): void {
  const a = f.s.attack!;
  const att = unitById(f.s, a.attacker)!;
  const two = a.targetUnit !== null && diceFor(f.s, att.sq!, a.target) === 2;
  const white = f.ctx.rng.die(6);
  const yellow = two ? f.ctx.rng.die(6) : null;
  f.emit({ type: 'DiceRolled', white, yellow, reroll });
  if (reroll) return afterEdge(f);
  // The Edge (002 p.3–4): its holder, while it is ON, may re-roll every die before the result is final.
  const edge = f.s.edge[attackBoard(f.s)]!;
  if (edge.on && edge.holder) return f.ask({ topic: 'edge', seat: seatOf(f.s, edge.holder, attackBoard(f.s)).id });
  afterEdge(f);
}

export function useEdge(f: Flow, seat: Seat): void {
  f.answered(seat, 'UseEdge');
  f.emit({ type: 'EdgeUsed', seat, board: attackBoard(f.s) });
  roll(f, true);
}

/** A Tank's player picks the die it reads (002 p.3). */
export function chooseDie(f: Flow, seat: Seat, die: 'white' | 'yellow'): void {
  f.answered(seat, die);
  f.emit({ type: 'DieChosen', die });
  finalize(f);
}

export function afterEdge(f: Flow): void {
  const a = f.s.attack!;
  const att = unitById(f.s, a.attacker)!;
  // A Tank rolling both dice chooses the white range result or the yellow ADV result (002 p.3).
  if (a.targetUnit && att.kind === 'tank' && a.yellow !== null) {
    const col = columnFor(f.s, att.kind, att.sq!, a.target);
    const w = readTable(f.s.table, col, a.white!, a.yellow, 'white');
    const y = readTable(f.s.table, col, a.white!, a.yellow, 'yellow');
    if (w.result !== y.result || w.icon !== y.icon) return f.ask({ topic: 'tank-die', seat: a.seat });
  }
  finalize(f);
}
