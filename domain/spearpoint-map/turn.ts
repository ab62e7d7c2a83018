import type { Ctx } from '../kernel/engine.js';
import { initiativeWinner } from '../frontline-general/rules.js';
import { SIDES, other, type Phase } from './model.js';
import type { Out } from './out.js';
import { cardOf, OVERRUN_TURNS, overrunning, sideUnitsAt, unitsOf } from './rules.js';
import type { Side } from '../frontline-general/data/schema.js';

/**
 * 003 §III Turn Sequence: each turn rolls Initiative (1d10 each, ties re-rolled), then Movement
 * (not on turn 1), Commitment, Combat (declaration, resolution) and Draw, every phase done first
 * by the Initiative winner and then by the other side; the End Turn step recovers damage, counts
 * down aircraft and smoke, and takes the Overrun count. Victory by scenario (victory section below).
 */

export function beginTurn(out: Out, ctx: Ctx): void {
  const turn = out.s.turn + 1;
  out.emit({ type: 'TurnBegan', turn });
  // 003 §IV Crimson Snow: from turn 2 both roll a d10 (ties re-rolled) until the US rolls higher.
  if (out.s.scenario.weather && turn >= 2 && !out.s.weatherClear) {
    let us = 0;
    let de = 0;
    while (us === de) [us, de] = [ctx.rng.die(10), ctx.rng.die(10)];
    out.emit({ type: 'WeatherRolled', us, de, clear: us > de });
  }
  // Initiative bonuses (Ambush!) add to each roll; equal totals are re-rolled (003 §III Initiative).
  const bonus = { us: out.s.seats.us.initiativeBonus, de: out.s.seats.de.initiativeBonus };
  const rolls: { us: number; de: number }[] = [];
  let winner: Side | null = null;
  while (winner === null) {
    const r = { us: ctx.rng.die(10), de: ctx.rng.die(10) };
    rolls.push(r);
    winner = initiativeWinner(r.us + bonus.us, r.de + bonus.de);
  }
  out.emit({ type: 'InitiativeRolled', rolls, winner, ...(bonus.us || bonus.de ? { bonus } : {}) });
  startPhase(out, turn === 1 ? 'commitment' : 'movement', ctx);
}

/** Starts a phase with the Initiative winner to act; the Commitment Phase first brings in scenario arrivals. */
export function startPhase(out: Out, phase: Phase, ctx: Ctx): void {
  if (phase === 'commitment') scenarioArrivals(out);
  if (phase === 'resolution') {
    const first = out.s.attacks.some((a) => a.status === 'pending' && a.seat === out.s.initiative) ? out.s.initiative : other(out.s.initiative!);
    if (!out.s.attacks.some((a) => a.status === 'pending')) return startPhase(out, 'draw', ctx);
    out.emit({ type: 'PhaseBegan', phase, active: first });
    return;
  }
  out.emit({ type: 'PhaseBegan', phase, active: out.s.initiative, ...(phase === 'declaration' ? { step: 'support' as const } : {}) });
}

/** Done: the active side has finished its part of the phase. */
export function passPhase(out: Out, ctx: Ctx): void {
  const s = out.s;
  const step = s.phase === 'declaration' ? { step: s.declStep } : {};
  if (s.active === s.initiative) {
    out.emit({ type: 'PhaseBegan', phase: s.phase, active: other(s.initiative!), ...step });
    return;
  }
  // 003 Combat 2: after both sides declared aircraft and artillery targets, both declare all others.
  if (s.phase === 'declaration' && s.declStep === 'support') {
    out.emit({ type: 'PhaseBegan', phase: 'declaration', active: s.initiative, step: 'ground' });
    return;
  }
  const next: Record<string, Phase> = { movement: 'commitment', commitment: 'declaration', declaration: 'resolution' };
  if (s.phase === 'draw') return endTurn(out, ctx);
  startPhase(out, next[s.phase]!, ctx);
}

/** Scenario arrivals at the start of a Commitment Phase: reinforcement aircraft, Liri Valley convoy units. */
function scenarioArrivals(out: Out): void {
  const s = out.s;
  for (const r of s.scenario.reinforcements ?? []) {
    if (r.turn !== s.turn) continue;
    r.units.forEach((p, i) => {
      const id = `${r.side}-r${r.turn}-${i + 1}`;
      const attached = (p.with ?? []).flatMap((title) => {
        const card = out.s.commandDeck.draw.find((c) => out.s.catalog.commandCards.find((k) => k.id === c)?.title === title);
        return card ? [card] : [];
      });
      out.emit({ type: 'AircraftArrived', unit: id, card: p.card, owner: r.side, crew: `${id}c`, attached });
    });
  }
  const convoy = s.scenario.convoy;
  if (convoy && (convoy.turns.includes(s.turn) || s.convoy.entered < convoy.turns.filter((t) => t < s.turn).length * convoy.perTurn)) {
    const due = convoy.turns.filter((t) => t <= s.turn).length * convoy.perTurn - s.convoy.entered;
    const room = 2 - sideUnitsAt(s, convoy.entry, 'us').length;
    const units = s.convoy.pool.slice(0, Math.max(0, Math.min(due, room)));
    if (units.length) out.emit({ type: 'ConvoyEntered', units, at: convoy.entry });
  }
}

/** 003 Ending the Turn, then the scenario's end-of-turn victory checks, then the next turn. */
export function endTurn(out: Out, ctx: Ctx): void {
  const s = out.s;
  for (const u of Object.values(s.units)) if (u.at === 'air' && (u.turnsLeft ?? 1) <= 1) out.emit({ type: 'AircraftReturned', unit: u.id, reason: 'fuel' });
  const count = (side: Side) => (overrunning(out.s, side) ? out.s.seats[side].overrun + 1 : 0);
  out.emit({ type: 'TurnEnded', turn: s.turn, overrun: { us: count('us'), de: count('de') } });
  if (checkVictory(out, true)) return;
  beginTurn(out, ctx);
}

const decide = (out: Out, winners: Side[], reason: string): true => {
  out.emit({ type: 'GameDecided', winners, reason });
  return true;
};

/**
 * Victory (003 Win Conditions and Scoring; each scenario's Win Conditions). Points and convoy and
 * breakthrough counts end the game at once; Overrun, deadlines and the Command Post are read at the
 * end of a turn. The `maxTurns` option (a Fieldpost bound, not 003's) ends a long game on points.
 */
export function checkVictory(out: Out, endOfTurn = false): boolean {
  const s = out.s;
  if (s.result) return true;
  const v = s.scenario.victory;
  const score = (side: Side) => s.seats[side].score;
  if (v.kind === 'points') {
    for (const side of SIDES)
      if (score(side) >= v.target[side]) return decide(out, [side], `${side === 'us' ? 'United States' : 'Germany'} scored ${score(side)} points`);
  }
  if (v.kind === 'buried-tank') {
    if (score('de') >= v.de) return decide(out, ['de'], `Germany scored ${score('de')} points`);
    const turmGone = Object.entries(s.tiles).some(([, t]) => t.kind === 'pantherturm' && !t.intact);
    if (score('us') >= v.us && turmGone) return decide(out, ['us'], `the United States scored ${score('us')} points and destroyed the Pantherturm I`);
  }
  if (v.kind === 'convoy') {
    if (s.convoy.arrived >= v.needed) return decide(out, ['us'], `${s.convoy.arrived} convoy units reached B-1`);
    const total = (s.scenario.convoy?.turns.length ?? 0) * (s.scenario.convoy?.perTurn ?? 0);
    if (s.convoy.destroyed >= total) return decide(out, ['de'], 'all six convoy units were destroyed');
    if (total - s.convoy.destroyed < v.needed) return decide(out, ['de'], 'too few convoy units are left to reach B-1');
  }
  if (v.kind === 'breakthrough' && s.seats.us.exited >= v.units) return decide(out, ['us'], `${s.seats.us.exited} US units broke through across row A`);
  if (!endOfTurn) return false;
  // End of turn: Overrun (003 Win Conditions), scenario deadlines, the turn bound.
  if (v.kind === 'points' || v.kind === 'buried-tank') {
    for (const side of SIDES)
      if (s.seats[side].overrun >= OVERRUN_TURNS) return decide(out, [side], `${side === 'us' ? 'United States' : 'Germany'} overran the enemy`);
  }
  if (v.kind === 'convoy' && s.turn > 1 && unitsOf(s, 'de').length === 0) return decide(out, ['us'], 'every German unit is destroyed or captured');
  if (v.kind === 'breakthrough' && s.turn >= v.turn) return decide(out, ['de'], `Germany held the line for ${v.turn} turns`);
  if (v.kind === 'command-post') {
    const inCp = (side: Side) => sideUnitsAt(s, v.space, side);
    const held = inCp('us').some((u) => cardOf(s, u.id).type === 'infantry') && inCp('de').length === 0;
    if (held) return decide(out, ['us'], `US infantry occupy the Command Post in ${v.space}`);
    if (s.turn === v.turn && s.cpDeadline === v.turn && s.tiles[v.space]?.intact) {
      // 003 §IV Gunter's Return: the Stuka failed to destroy the Command Post; two more turns.
      out.emit({ type: 'CommandPostExtended', turn: v.extendedTurn });
      return false;
    }
    if (s.turn >= out.s.cpDeadline) return decide(out, ['de'], `Germany kept the Command Post until the end of turn ${out.s.cpDeadline}`);
  }
  if (s.turn >= s.options.maxTurns) {
    const [us, de] = [score('us'), score('de')];
    return decide(out, us === de ? [] : [us > de ? 'us' : 'de'], `the turn limit (${s.options.maxTurns}) was reached: ${us}–${de} on points`);
  }
  return false;
}
